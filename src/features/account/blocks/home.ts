// App Home: whether the viewer's key is linked, and their machines as compact cards.
import type { HomeView, KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, LIMITS, mrkdwn, plainText } from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { machineCard } from '../../machines/blocks/machine-card.js';

export interface HomeViewInput {
  /** The linked account, or undefined when the viewer has not logged in. */
  linked: { maskedKey: string; account: string } | undefined;
  machines: Machine[];
  /** Why the machines could not be loaded, in a sentence. */
  error?: string;
}

/** A divider and a compact card (section and actions). */
const BLOCKS_PER_MACHINE = 3;

export function homeView({ linked, machines, error }: HomeViewInput): HomeView {
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText('Paperspace', LIMITS.headerText) }];
  if (linked) {
    blocks.push({
      type: 'section',
      text: mrkdwn(
        `✅ Linked to *${escapeMrkdwn(linked.account)}* with key \`${escapeMrkdwn(linked.maskedKey)}\``,
      ),
      accessory: button({
        actionId: ActionId.login,
        text: 'Change key',
        accessibilityLabel: 'Link a different API key',
      }),
    });
  } else {
    blocks.push({
      type: 'section',
      text: mrkdwn('🔑 Link your Paperspace API key to see and drive your machines from Slack.'),
      accessory: button({ actionId: ActionId.login, text: 'Log in', style: 'primary' }),
    });
  }
  if (error) blocks.push({ type: 'section', text: mrkdwn(`⚠️ ${escapeMrkdwn(error)}`) });

  if (linked && !error) {
    blocks.push({ type: 'header', text: plainText(`Your machines (${machines.length})`, LIMITS.headerText) });
    if (machines.length === 0) {
      blocks.push({
        type: 'section',
        text: mrkdwn(`No machines yet. Create one with \`${SLASH_COMMAND} create\`.`),
      });
    }
    // Room for the "and N more" line and the footer.
    const room = Math.floor((LIMITS.viewBlocks - blocks.length - 2) / BLOCKS_PER_MACHINE);
    const shown = machines.slice(0, room);
    for (const machine of shown) {
      blocks.push({ type: 'divider' }, ...machineCard(machine, { compact: true }));
    }
    if (machines.length > shown.length) {
      blocks.push(contextLine(`… and ${machines.length - shown.length} more, use \`${SLASH_COMMAND} list\``));
    }
  }
  blocks.push(contextLine(`\`${SLASH_COMMAND} help\` lists every command.`));
  return { type: 'home', blocks };
}
