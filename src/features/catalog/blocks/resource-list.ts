// /ps templates | users | networks | scripts | drives: one section per item with its key fields,
// paged like the machine list (the list kind travels in the Prev/Next value).
import type { Network, Script, SharedDrive, Template, User } from '../../../paperspace/schemas.js';
import { section } from '../../../slack/block-kit/elements.js';
import { formatGiB } from '../../../slack/block-kit/format.js';
import { filtersMrkdwn, listPage, PAGER_BLOCKS, type PageRequest } from '../../../slack/block-kit/paging.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  type SlackMessage,
  slackDate,
  truncate,
} from '../../../slack/block-kit/text.js';

export interface ResourceItems {
  templates: Template;
  users: User;
  networks: Network;
  scripts: Script;
  drives: SharedDrive;
}
export type ResourceKind = keyof ResourceItems;

const RESOURCE_PAGE_SIZE = 20;
/** Header, filters line and pager around one section per item. */
const MAX_RESOURCE_PAGE_SIZE = LIMITS.messageBlocks - 2 - PAGER_BLOCKS;

const NOUNS: Record<ResourceKind, string> = {
  templates: 'template',
  users: 'user',
  networks: 'network',
  scripts: 'script',
  drives: 'shared drive',
};

/** A description is context, not the point of a list: long ones are cut so the id line stays visible. */
const DESCRIPTION_CHARS = 300;

/** `code` for ids and addresses, so they copy cleanly. */
const code = (text: string) => `\`${escapeMrkdwn(text)}\``;
const bold = (text: string) => `*${escapeMrkdwn(text)}*`;

function created(dtCreated: string): string | undefined {
  const at = Date.parse(dtCreated);
  return Number.isFinite(at) ? `created ${slackDate(at, '{date_short}')}` : undefined;
}

/** Each item as lines of escaped mrkdwn: a bold title first, then its key fields. */
const DESCRIBE: { [K in ResourceKind]: (item: ResourceItems[K]) => (string | undefined)[] } = {
  templates: (template) => [
    bold(template.label ?? template.name),
    [escapeMrkdwn(template.os), code(template.name)].join(' · '),
    [`id ${code(template.id)}`, created(template.dtCreated)].filter(Boolean).join(' · '),
    // Where each template has its own catalog (v1), it is what /ps create accepts with it.
    template.machineTypes === undefined
      ? undefined
      : template.machineTypes.length === 0
        ? 'machine types: none available right now'
        : `machine types: ${template.machineTypes.map(escapeMrkdwn).join(', ')}`,
  ],
  users: (user) => [
    bold(`${user.firstname} ${user.lastname}`.trim() || user.email),
    escapeMrkdwn(user.email),
    // Every user listed is of the caller's own team: its id would say nothing, on each row.
    `id ${code(user.id)}`,
  ],
  networks: (network) => [
    bold(network.name),
    [escapeMrkdwn(network.region), `${code(network.network)} netmask ${code(network.netmask)}`].join(' · '),
    [`id ${code(network.id)}`, created(network.dtCreated)].filter(Boolean).join(' · '),
  ],
  scripts: (script) => [
    bold(script.name),
    [
      script.isEnabled ? '✅ enabled' : '⏸️ disabled',
      script.runOnce ? 'runs on first boot only' : 'runs on every boot',
      `owner: ${escapeMrkdwn(script.ownerType)}`,
    ].join(' · '),
    script.description ? escapeMrkdwn(truncate(script.description, DESCRIPTION_CHARS)) : undefined,
    [`id ${code(script.id)}`, created(script.dtCreated)].filter(Boolean).join(' · '),
  ],
  // Drive credentials arrive masked; they are left out rather than shown as asterisks.
  drives: (drive) => [
    bold(drive.name),
    [
      drive.size === undefined ? undefined : formatGiB(drive.size),
      drive.region ? escapeMrkdwn(drive.region.name) : undefined,
      drive.mountPoint ? code(drive.mountPoint) : undefined,
    ]
      .filter(Boolean)
      .join(' · ') || undefined,
    `id ${code(drive.id)}`,
  ],
};

export function resourceList<K extends ResourceKind>(
  kind: K,
  items: ResourceItems[K][],
  request: PageRequest,
): SlackMessage {
  const noun = NOUNS[kind];
  const filters = filtersMrkdwn(request.filters);
  if (items.length === 0) {
    const text = filters ? `No ${noun}s match ${filters}.` : `No ${noun}s on this account.`;
    return message([section(text)], text);
  }
  const describe = DESCRIBE[kind];
  const { blocks, headline } = listPage({
    kind,
    noun,
    items,
    request,
    pageSize: { fallback: RESOURCE_PAGE_SIZE, max: MAX_RESOURCE_PAGE_SIZE },
    itemBlocks: (item) => {
      const lines = describe(item).filter((line): line is string => Boolean(line));
      return [section(lines.join('\n'))];
    },
  });
  return message(blocks, headline);
}
