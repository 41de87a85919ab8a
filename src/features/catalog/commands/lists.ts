// /ps list, templates, users, networks, scripts and drives: page 1 of everything that matches, only
// for the asker. Prev/Next are answered by buttons/list-page.ts.
import { z } from 'zod';
import type { CommandContext } from '../../../slack/command-context.js';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { viewerButtons } from '../../machines/machine-permissions.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { filtersSchema, readFilters } from '../list-filters.js';
import { listMessage } from '../list-message.js';
import type { ListingKind, RawFilters } from '../listings.js';
import { resolveOwnerFilter } from '../owner-filter.js';

async function replyWithFirstPage(
  context: CommandContext,
  deps: CatalogDeps,
  kind: ListingKind,
  filters: RawFilters,
) {
  // The key and its account in one read of the vault: the machines' buttons need the account.
  const linked = await context.linkedClient();
  if (linked === undefined) return;
  const { client, account } = linked;
  // Started before the list is fetched, so a role it needs is read beside it (machine-permissions.ts).
  const buttonsFor =
    kind === 'machines' ? viewerButtons(deps, { user: context.user, client, account }) : undefined;
  const owner =
    kind === 'machines' ? await resolveOwnerFilter(context, deps, linked, filters) : { sent: filters };
  await context.replyPrivately(
    await listMessage(client, kind, owner.sent, 1, {
      ...(buttonsFor && { buttonsFor }),
      ...(owner.narrow && { narrow: owner.narrow }),
      shown: filters,
    }),
  );
}

export const listOperation = defineOperation({
  name: 'list',
  usage: `${ps} list [key=value ...]`,
  summary:
    'List your machines, filtered by machine fields (state=ready, region=CA1, ...) or by owner (owner=@sam).',
  help: {
    parameters: ['`state=ready`, `region=CA1`, `machineType=P4000`, `name=…`: any machine field.'],
    examples: [`${ps} list`, `${ps} list state=ready`],
    effect: 'Answers only you with your machines and their state, with Prev/Next when there are many.',
  },
  kind: 'read',
  tool: {
    name: 'list_machines',
    title: 'List machines',
    description:
      "Lists the person's Paperspace machines (and, for a team, the team's) with state, type, region, price and owner. Optional filters: state (off, starting, ready, serviceready, stopping, restarting), region, machineType, name, or owner (a Slack user as <@U123>, a name or an e-mail).",
    idempotent: true,
  },
  params: filtersSchema('list'),
  read: (args) => readFilters('list', args),
  run: ({ filters }, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'machines', filters),
});

export const templatesOperation = defineOperation({
  name: 'templates',
  usage: `${ps} templates [key=value ...]`,
  summary: 'List templates (filters: os, region, ...).',
  help: {
    parameters: ['`key=value`: filters such as `os=…` or `region=CA1`.'],
    examples: [`${ps} templates`, `${ps} templates region=CA1`],
    effect: 'Answers only you with the templates you can create machines from.',
  },
  kind: 'read',
  tool: {
    name: 'list_templates',
    title: 'List templates',
    description:
      'Lists the templates (operating system images) machines can be created from. Optional filters: os, region, label, name.',
    idempotent: true,
  },
  params: filtersSchema('templates'),
  read: (args) => readFilters('templates', args),
  run: ({ filters }, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'templates', filters),
});

export const usersOperation = defineOperation({
  name: 'users',
  usage: `${ps} users [key=value ...]`,
  summary: 'List the users of your team.',
  help: {
    parameters: ['`key=value`: filters such as `email=…`.'],
    examples: [`${ps} users`],
    effect: 'Answers only you with the people of your Paperspace team.',
  },
  kind: 'read',
  params: filtersSchema('users'),
  read: (args) => readFilters('users', args),
  run: ({ filters }, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'users', filters),
});

export const networksOperation = defineOperation({
  name: 'networks',
  usage: `${ps} networks [key=value ...]`,
  summary: 'List your private networks.',
  help: {
    parameters: ['`key=value`: filters such as `region=CA1`.'],
    examples: [`${ps} networks`],
    effect: 'Answers only you with your private networks.',
  },
  kind: 'read',
  params: filtersSchema('networks'),
  read: (args) => readFilters('networks', args),
  run: ({ filters }, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'networks', filters),
});

export const scriptsOperation = defineOperation({
  name: 'scripts',
  usage: `${ps} scripts`,
  summary: 'List your startup scripts.',
  help: {
    parameters: [],
    examples: [`${ps} scripts`],
    effect: 'Answers only you with your startup scripts.',
  },
  kind: 'read',
  params: z.object({}),
  read: (args) => withoutArguments('scripts', args),
  run: (_params, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'scripts', {}),
});

export const drivesOperation = defineOperation({
  name: 'drives',
  usage: `${ps} drives`,
  summary: 'List shared drives (team administrators).',
  help: {
    parameters: [],
    examples: [`${ps} drives`],
    effect: "Answers only you with the team's shared drives (team administrators).",
  },
  kind: 'read',
  params: z.object({}),
  read: (args) => withoutArguments('drives', args),
  run: (_params, context, deps: CatalogDeps) => replyWithFirstPage(context, deps, 'drives', {}),
});
