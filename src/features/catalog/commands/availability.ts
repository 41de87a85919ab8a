// /ps availability [region] [machineType]: a grid of every region and dedicated GPU type left open.

import type { CommandHandler } from '../../../slack/command-context.js';
import { checkAvailability } from '../availability-check.js';
import { availabilityGrid } from '../blocks/availability.js';

export const availabilityCommand: CommandHandler<'availability'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const cells = await checkAvailability(client, { region: command.region, machineType: command.machineType });
  await context.replyPrivately(availabilityGrid(cells));
};
