// /ps availability [region] [machineType]: a grid of every region and machine type left open.
import { z } from 'zod';
import { REGIONS, type Region } from '../../../paperspace/constants.js';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  type Read,
  splitWithoutKeyValues,
} from '../../../slack/command-language/command-arguments.js';
import {
  REGION_CODE_LIST,
  readMachineType,
  resolveRegion,
} from '../../../slack/command-language/command-values.js';
import { echo } from '../../../slack/command-language/echo.js';
import type { Token } from '../../../slack/command-language/tokenize.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { availabilityTypes, checkAvailability } from '../availability-check.js';
import { availabilityGrid } from '../blocks/availability.js';

/**
 * A null field means "every": every region, every type the API reports on. The type is checked
 * against the account's catalog when the command runs (the contract's dedicated GPU types, v1's
 * templates' types), so here it is any label, spelled as the contract spells it when it knows it.
 */
type AvailabilityParams = { region: Region | null; machineType: string | null };

export const availabilityOperation = defineOperation({
  name: 'availability',
  usage: `${ps} availability [region] [machineType]`,
  summary:
    'Show where machine types can be created now: dedicated GPU types on the legacy API, every type your templates offer on API v1.',
  help: {
    parameters: ['`[region]`: CA1, NY2 or AMS1.', '`[machineType]`: e.g. P4000.'],
    examples: [`${ps} availability`, `${ps} availability NY2 P4000`],
    effect: 'Answers only you with where each machine type can be created right now.',
  },
  kind: 'read',
  tool: {
    name: 'machine_availability',
    title: 'Machine availability',
    description:
      'Says which machine types can be created now in which region, optionally for one region or one machine type.',
    idempotent: true,
  },
  params: z.object({
    region: z.enum(REGIONS).nullable().default(null).describe('One region, or null for every region.'),
    machineType: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe('One machine type (P4000, A100), or null for every type.'),
  }),
  read: readAvailability,
  run: showAvailability,
});

/**
 * Region and machine type may come in either order: a region is recognised by its codes, anything
 * else is the machine type. Whether Paperspace reports on that type depends on the account's API, so
 * the command checks it when it runs.
 */
function readAvailability(args: readonly Token[]): Read<AvailabilityParams> {
  const split = splitWithoutKeyValues('availability', args);
  if (!split.ok) return split;
  let region: Region | null = null;
  let machineType: string | null = null;
  for (const token of split.args.positionals) {
    const typedRegion = resolveRegion(token.text);
    if (typedRegion !== null) {
      if (region !== null) return fail(`Unexpected second region ${echo(token.text)}: give one region.`);
      region = typedRegion;
      continue;
    }
    if (machineType !== null) {
      return fail(
        `Unexpected second region or machine type ${echo(token.text)}: give one region (${REGION_CODE_LIST.join(', ')}) and one machine type.`,
      );
    }
    const typedType = readMachineType(token.text);
    machineType = typedType.kind === 'unknown' ? token.text.trim() : typedType.machineType;
    // A quoted "" is a word with nothing in it: never a machine type to ask Paperspace about.
    if (machineType === '')
      return fail(`${echo(token.text)} is not a machine type: name one, such as A100, or leave it out.`);
  }
  return accept({ region, machineType });
}

async function showAvailability(command: AvailabilityParams, context: CommandContext): Promise<void> {
  const client = await context.userClient();
  if (client === undefined) return;
  const types = await availabilityTypes(client, command.machineType);
  if (!types.ok) {
    await context.replyPrivately(errorMessage(types.message));
    return;
  }
  const cells = await checkAvailability(client, { region: command.region, machineTypes: types.machineTypes });
  await context.replyPrivately(availabilityGrid(cells));
}
