// How a button or a block names the machine it acts on. Button values carry the id (what the handler
// acts on) and the name (so a reply can say "Stopping gpu-1" before any API call); the overflow menu
// has no per-option room for that, so the actions block's block_id carries the machine id instead.
import { z } from 'zod';
import type { Machine } from '../../../paperspace/schemas.js';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';

/** Names are user-chosen and unbounded; capping them keeps every value far below Slack's 2000. */
const MAX_NAME_IN_VALUE = 200;

const machineRefSchema = z.strictObject({
  id: z.string().min(1).max(255),
  name: z.string().max(MAX_NAME_IN_VALUE),
});
export type MachineRef = z.infer<typeof machineRefSchema>;

export function encodeMachineRef(machine: Pick<Machine, 'id' | 'name'>): string {
  return JSON.stringify({ id: machine.id, name: machine.name.slice(0, MAX_NAME_IN_VALUE) });
}

/** Reads a button value written by encodeMachineRef; throws a message naming the problem otherwise. */
export function decodeMachineRef(value: string): MachineRef {
  return decodeEncodedValue(machineRefSchema, value, 'Machine button value');
}

const MACHINE_ACTIONS_PREFIX = 'machine_actions:';

/** block_id of a machine card's actions block; unique per machine, so one message holds many cards. */
export function machineActionsBlockId(machineId: string): string {
  return MACHINE_ACTIONS_PREFIX + machineId;
}

/** The machine id in a card's actions block_id (what the overflow handler acts on), or undefined. */
export function machineIdFromBlockId(blockId: string): string | undefined {
  if (!blockId.startsWith(MACHINE_ACTIONS_PREFIX)) return undefined;
  const id = blockId.slice(MACHINE_ACTIONS_PREFIX.length);
  return id === '' ? undefined : id;
}
