// /ps availability [region] [machineType]: a grid of every region and machine type left open.

import { errorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { availabilityTypes, checkAvailability } from '../availability-check.js';
import { availabilityGrid } from '../blocks/availability.js';

export const availabilityCommand: CommandHandler<'availability'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const types = await availabilityTypes(client, command.machineType);
  if (!types.ok) {
    await context.replyPrivately(errorMessage(types.message));
    return;
  }
  const cells = await checkAvailability(client, { region: command.region, machineTypes: types.machineTypes });
  await context.replyPrivately(availabilityGrid(cells));
};
