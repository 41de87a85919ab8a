// /ps list, templates, users, networks, scripts and drives: page 1 of everything that matches, only
// for the asker. Prev/Next are answered by buttons/list-page.ts.

import type { CommandContext, CommandHandler } from '../../../slack/command-context.js';
import { viewerButtons } from '../../machines/machine-permissions.js';
import { listMessage } from '../list-message.js';
import type { ListingKind, RawFilters } from '../listings.js';
import { resolveOwnerFilter } from '../owner-filter.js';

async function replyWithFirstPage(context: CommandContext, kind: ListingKind, filters: RawFilters) {
  // The key and its account in one read of the vault: the machines' buttons need the account.
  const linked = await context.linkedClient();
  if (linked === undefined) return;
  const { client, account } = linked;
  // Started before the list is fetched, so a role it needs is read beside it (machine-permissions.ts).
  const buttonsFor =
    kind === 'machines' ? viewerButtons(context.deps, { user: context.user, client, account }) : undefined;
  const sent = kind === 'machines' ? await resolveOwnerFilter(context, client, filters) : filters;
  await context.replyPrivately(
    await listMessage(client, kind, sent, 1, { ...(buttonsFor && { buttonsFor }), shown: filters }),
  );
}

export const listCommand: CommandHandler<'list'> = (command, context) =>
  replyWithFirstPage(context, 'machines', command.filters);

export const templatesCommand: CommandHandler<'templates'> = (command, context) =>
  replyWithFirstPage(context, 'templates', command.filters);

export const usersCommand: CommandHandler<'users'> = (command, context) =>
  replyWithFirstPage(context, 'users', command.filters);

export const networksCommand: CommandHandler<'networks'> = (command, context) =>
  replyWithFirstPage(context, 'networks', command.filters);

export const scriptsCommand: CommandHandler<'scripts'> = (_command, context) =>
  replyWithFirstPage(context, 'scripts', {});

export const drivesCommand: CommandHandler<'drives'> = (_command, context) =>
  replyWithFirstPage(context, 'drives', {});
