// /ps list: one page of compact machine cards with a count, the filters in force and Prev/Next.
import type { KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import {
  clampPageSize,
  countHeadline,
  filtersMrkdwn,
  PAGER_BLOCKS,
  type PageRequest,
  pageNavigation,
  pageSlice,
} from '../../../slack/block-kit/paging.js';
import { escapeMrkdwn, LIMITS, message, mrkdwn, type SlackMessage } from '../../../slack/block-kit/text.js';
import type { ButtonsFor } from '../machine-permissions.js';
import { machineCard } from './machine-card.js';
import { stateLabel } from './machine-state.js';

/** A compact card is a section and an actions block; a divider separates it from the next. */
const BLOCKS_PER_MACHINE = 3;
/** Header and filters line. */
const LIST_OVERHEAD = 2;
export const MACHINE_PAGE_SIZE = 10;
/** The most machines a 50-block message holds with the header, filters line and pager. */
export const MAX_MACHINE_PAGE_SIZE = Math.floor(
  (LIMITS.messageBlocks - LIST_OVERHEAD - PAGER_BLOCKS) / BLOCKS_PER_MACHINE,
);

/** `buttons`: the buttons the viewer can use on each machine (machine-permissions.ts). */
export function machineList(
  machines: Machine[],
  request: PageRequest,
  buttons: ButtonsFor = () => ({ power: true, manage: true }),
): SlackMessage {
  const filters = filtersMrkdwn(request.filters);
  if (machines.length === 0) return emptyMachineList(filters);

  const pageSize = clampPageSize(request.pageSize, MACHINE_PAGE_SIZE, MAX_MACHINE_PAGE_SIZE);
  const slice = pageSlice(machines.length, request.page, pageSize);
  const shown = machines.slice(slice.start, slice.end);
  const headline = countHeadline(machines.length, 'machine', slice);

  const blocks: KnownBlock[] = [header(headline)];
  if (filters) blocks.push(contextLine(`Filters: ${filters}`));
  shown.forEach((machine, index) => {
    if (index > 0) blocks.push({ type: 'divider' });
    blocks.push(...machineCard(machine, { compact: true, buttons: buttons(machine) }));
  });
  blocks.push(...pageNavigation('machines', request.filters, slice));

  const names = shown.map((machine) => `${machine.name} (${stateLabel(machine.state).words})`);
  return message(blocks, `${headline}: ${escapeMrkdwn(names.join(', '))}`);
}

function emptyMachineList(filters: string | undefined): SlackMessage {
  const text = filters
    ? `No machines match ${filters}. Try \`/ps list\` without filters.`
    : 'No machines on this account yet. Create one with `/ps create`.';
  return message([{ type: 'section', text: mrkdwn(text) }], text);
}
