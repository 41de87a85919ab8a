// /ps availability [region] [machineType]: a grid of every region and dedicated GPU type left open.
import { checkAvailability } from '../../../../services/availability-check.js';
import { availabilityGrid } from '../../../blocks/availability.js';
import type { CommandHandler } from '../command-context.js';

export const availabilityCommand: CommandHandler<'availability'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const cells = await checkAvailability(client, { region: command.region, machineType: command.machineType });
  await context.replyPrivately(availabilityGrid(cells));
};
