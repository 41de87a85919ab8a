// How a button or a block names the machine it acts on. Button values carry the id (what the handler
// acts on) and the name (so a reply can say "Stopping gpu-1" before any API call); the overflow menu
// has no per-option room for that, so the actions block's block_id carries the machine id instead.
import { z } from 'zod';
import type { Machine } from '../../../paperspace/schemas.js';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';
import { decodePageValue, type PageValue } from '../../../slack/block-kit/paging.js';

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
/** Separates the machine id from the list page a row was drawn on; Paperspace ids never hold it. */
const LIST_PAGE_SEPARATOR = '|';
/** Slack's limit on a block_id. */
const MAX_BLOCK_ID = 255;

/**
 * block_id of a machine card's actions block; unique per machine, so one message holds many cards. A
 * row of a list also carries the page it was drawn on: a list is an ephemeral reply, and Slack sends
 * no message with a click on one, so this is how a click learns which list to draw again with only its
 * own row changed. A page too long for Slack's 255 characters is left out (the click then says where
 * the live card is instead).
 */
export function machineActionsBlockId(machineId: string, listPage?: PageValue): string {
  const plain = MACHINE_ACTIONS_PREFIX + machineId;
  if (listPage === undefined) return plain;
  const page = JSON.stringify({ kind: listPage.kind, filters: listPage.filters, page: listPage.page });
  const withPage = plain + LIST_PAGE_SEPARATOR + page;
  return withPage.length <= MAX_BLOCK_ID ? withPage : plain;
}

/** The machine id in a card's actions block_id (what the overflow handler acts on), or undefined. */
export function machineIdFromBlockId(blockId: string): string | undefined {
  if (!blockId.startsWith(MACHINE_ACTIONS_PREFIX)) return undefined;
  const [id] = blockId.slice(MACHINE_ACTIONS_PREFIX.length).split(LIST_PAGE_SEPARATOR, 1);
  return id === '' ? undefined : id;
}

/**
 * The list page a row's actions block_id names, or undefined for a card outside a list. The block_id
 * comes back from Slack, so a damaged page is read as no page: the click still does what it asked.
 */
export function listPageFromBlockId(blockId: string): PageValue | undefined {
  if (!blockId.startsWith(MACHINE_ACTIONS_PREFIX)) return undefined;
  const at = blockId.indexOf(LIST_PAGE_SEPARATOR);
  if (at < 0) return undefined;
  try {
    return decodePageValue(blockId.slice(at + 1));
  } catch {
    return undefined;
  }
}
