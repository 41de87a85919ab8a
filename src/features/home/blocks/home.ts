// App Home: whether the viewer's key is linked, and their machines as compact cards.
import type { HomeView, KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, LIMITS, mrkdwn, plainText } from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { machineCard } from '../../machines/blocks/machine-card.js';
import type { ButtonsFor } from '../../machines/machine-permissions.js';

export interface HomeViewInput {
  /** The linked account, or undefined when the viewer has not logged in. */
  linked: { maskedKey: string; account: string } | undefined;
  machines: Machine[];
  /** The buttons the viewer can use on each machine; a team key lists teammates' machines too. */
  buttons?: ButtonsFor;
  /** Why the machines could not be loaded, in a sentence. */
  error?: string;
}

/** A divider and a compact card (section and actions). */
const BLOCKS_PER_MACHINE = 3;

const ALL_BUTTONS: ButtonsFor = () => ({ power: true, manage: true });

export function homeView({ linked, machines, error, buttons = ALL_BUTTONS }: HomeViewInput): HomeView {
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
    // Paperspace lets only the owner power a machine: the ones the viewer can power are theirs.
    const own = machines.filter((machine) => buttons(machine).power);
    const team = machines.filter((machine) => !buttons(machine).power);
    blocks.push({ type: 'header', text: plainText(`Your machines (${own.length})`, LIMITS.headerText) });
    if (own.length === 0) {
      blocks.push({
        type: 'section',
        text: mrkdwn(
          team.length === 0
            ? `No machines yet. Create one with \`${SLASH_COMMAND} create\`.`
            : 'None of the machines your key sees is yours.',
        ),
      });
    }
    // Room for a second header, the "and N more" line and the footer.
    let room = Math.floor((LIMITS.viewBlocks - blocks.length - 4) / BLOCKS_PER_MACHINE);
    const section = (list: Machine[]) => {
      const shown = list.slice(0, Math.max(0, room));
      room -= shown.length;
      for (const machine of shown) {
        blocks.push(
          { type: 'divider' },
          ...machineCard(machine, { compact: true, buttons: buttons(machine) }),
        );
      }
      return list.length - shown.length;
    };
    let hidden = section(own);
    if (team.length > 0 && room > 0) {
      // These offer "Ask the owner" instead of power, and Settings, Access, Destroy to an administrator.
      blocks.push({
        type: 'header',
        text: plainText(`Your team's machines (${team.length})`, LIMITS.headerText),
      });
      hidden += section(team);
    } else hidden += team.length;
    if (hidden > 0) {
      blocks.push(contextLine(`… and ${hidden} more, use \`${SLASH_COMMAND} list\``));
    }
  }
  blocks.push(contextLine(`\`${SLASH_COMMAND} help\` lists every command.`));
  return { type: 'home', blocks };
}
