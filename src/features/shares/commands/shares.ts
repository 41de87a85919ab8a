// `/ps shares`: the person's shares that have not expired, with where they were posted and until when.

import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { contextLine, header, section } from '../../../slack/block-kit/elements.js';
import {
  escapeMrkdwn,
  LIMITS,
  mrkdwn,
  nameMrkdwn,
  plural,
  type SlackMessage,
} from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { Delegation } from '../../../store/delegations.js';
import { endShareButton, when } from '../blocks/share.js';
import type { SharesDeps } from '../shares-deps.js';

/** Header and footer around one section per share. */
const MAX_SHARES_SHOWN = LIMITS.messageBlocks - 2;

export const sharesOperation = defineOperation({
  name: 'shares',
  usage: `${SLASH_COMMAND} shares`,
  summary: 'List the shares you made that have not expired.',
  help: {
    parameters: [],
    examples: [`${SLASH_COMMAND} shares`],
    effect: 'Answers only you with the shares you made that have not ended, each with End share.',
  },
  kind: 'read',
  params: z.object({}),
  read: (args) => withoutArguments('shares', args),
  run: listShares,
});

async function listShares(_command: unknown, context: CommandContext, deps: SharesDeps): Promise<void> {
  const { user } = context;
  const active = await deps.store.delegations.listActive(deps.now(), {
    teamId: user.teamId,
    userId: user.userId,
  });
  if (active.length === 0) {
    const text = `You have no active shares. \`${SLASH_COMMAND} share <machine>\` shares machines in a channel for 4 hours.`;
    await context.replyPrivately({ blocks: [section(escapeMrkdwn(text))], text });
    return;
  }
  await context.replyPrivately(sharesMessage(active, await machineNames(context, deps)));
}

/** Names for the stored machine ids, read with the person's key; ids stand in when that fails. */
async function machineNames(context: CommandContext, deps: SharesDeps): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    const client = await deps.clients.forUser(context.user, { requestId: context.requestId });
    for (const machine of client ? await client.machines.list() : []) names.set(machine.id, machine.name);
  } catch (error) {
    context.deps.logger.warn({ err: error }, 'could not name shared machines; showing ids');
  }
  return names;
}

/** A machine by its name, as cards show it; its id only to tell apart two machines of one name. */
function machineLabel(id: string, names: Map<string, string>): string {
  const name = names.get(id);
  if (name === undefined) return `\`${escapeMrkdwn(id)}\``;
  const namesakes = [...names.values()].filter((other) => other === name).length;
  return namesakes > 1 ? `${nameMrkdwn(name)} \`${escapeMrkdwn(id)}\`` : nameMrkdwn(name);
}

function sharesMessage(shares: Delegation[], names: Map<string, string>): SlackMessage {
  const title = `Your active shares (${shares.length})`;
  const blocks: KnownBlock[] = [header(title)];
  for (const share of shares.slice(0, MAX_SHARES_SHOWN)) {
    const machines = share.machineIds.map((id) => machineLabel(id, names)).join(', ');
    const where = share.channel.startsWith('D') ? 'in our DM' : `in <#${escapeMrkdwn(share.channel)}>`;
    const details = [
      `${where}, until ${when(share.expiresAt)}`,
      share.grants === null
        ? `resource delegation ${escapeMrkdwn(share.delegationId)} · access token id \`${escapeMrkdwn(share.accessTokenId)}\``
        : `access for ${[...new Set(share.grants.map((grant) => `<@${escapeMrkdwn(grant.slackUserId)}>`))].join(', ') || 'nobody new'}`,
    ];
    blocks.push({
      type: 'section',
      text: mrkdwn([machines, ...details].join('\n')),
      accessory: endShareButton(
        share.id,
        share.machineIds.map((id) => names.get(id) ?? id),
        share.grants !== null,
      ),
    });
  }
  if (shares.length > MAX_SHARES_SHOWN) {
    blocks.push(contextLine(`… and ${plural(shares.length - MAX_SHARES_SHOWN, 'more share')}`));
  } else {
    blocks.push(contextLine('Each share ends by itself 4 hours after it was made; End share ends it early.'));
  }
  return { blocks, text: title };
}
