// /ps list: one page of compact machine cards with a count, the filters in force and Prev/Next.
import type { Machine } from '../../../paperspace/schemas.js';
import { section } from '../../../slack/block-kit/elements.js';
import { filtersMrkdwn, listPage, PAGER_BLOCKS, type PageRequest } from '../../../slack/block-kit/paging.js';
import { escapeMrkdwn, LIMITS, message, type SlackMessage } from '../../../slack/block-kit/text.js';
import type { ButtonsFor } from '../machine-permissions.js';
import { machineCard } from './machine-card.js';
import { stateLabel } from './machine-state.js';

/** A compact card is a section and an actions block; a divider separates it from the next. */
const BLOCKS_PER_MACHINE = 3;
/** Header and filters line. */
const LIST_OVERHEAD = 2;
const MACHINE_PAGE_SIZE = 10;
/** The most machines a 50-block message holds with the header, filters line and pager. */
const MAX_MACHINE_PAGE_SIZE = Math.floor(
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

  const { blocks, headline, shown } = listPage({
    kind: 'machines',
    noun: 'machine',
    items: machines,
    request,
    pageSize: { fallback: MACHINE_PAGE_SIZE, max: MAX_MACHINE_PAGE_SIZE },
    // Each row names its page, so a click on it can draw this page again (machine-ref.ts).
    itemBlocks: (machine) =>
      machineCard(machine, {
        compact: true,
        buttons: buttons(machine),
        listPage: { kind: 'machines', filters: request.filters, page: request.page },
      }),
    dividers: true,
  });
  const names = shown.map((machine) => `${machine.name} (${stateLabel(machine.state).words})`);
  return message(blocks, `${headline}: ${escapeMrkdwn(names.join(', '))}`);
}

function emptyMachineList(filters: string | undefined): SlackMessage {
  const text = filters
    ? `No machines match ${filters}. Try \`/ps list\` without filters.`
    : 'No machines on this account yet. Create one with `/ps create`.';
  return message([section(text)], text);
}
