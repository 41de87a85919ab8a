// App Home: whether the viewer's key is linked, and their machines as compact cards, as many as fit a
// view's 100 blocks and the text budget; the rest are counted, with the command that lists them.
import type { HomeView, KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { rowsThatFit, VIEW_BUDGET } from '../../../slack/block-kit/message-budget.js';
import { escapeMrkdwn, LIMITS, mrkdwn, plainText, plural } from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { type CardLease, machineCard } from '../../machines/blocks/machine-card.js';
import type { ButtonsFor } from '../../machines/machine-permissions.js';

export interface HomeViewInput {
  /** The linked account, or undefined when the viewer has not logged in. */
  linked: { maskedKey: string; account: string } | undefined;
  machines: Machine[];
  /** The buttons the viewer can use on each machine; a team key lists teammates' machines too. */
  buttons?: ButtonsFor;
  /** When the team's policies stop each running team machine, by machine id. */
  leases?: ReadonlyMap<string, CardLease>;
  /** Why the machines could not be loaded, in a sentence. */
  error?: string;
}

const ALL_BUTTONS: ButtonsFor = () => ({ power: true, manage: true, mine: true });

export function homeView({
  linked,
  machines,
  error,
  buttons = ALL_BUTTONS,
  leases = new Map(),
}: HomeViewInput): HomeView {
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
  if (error) blocks.push(section(`⚠️ ${escapeMrkdwn(error)}`));

  const footer = contextLine(`\`${SLASH_COMMAND} help\` lists every command.`);
  if (linked && !error) {
    // Theirs by the owner rule alone: an administrator may power a teammate's machine, which stays
    // the teammate's; the rest of what the key sees is the team's, each naming its owner.
    const own = machines.filter((machine) => buttons(machine).mine === true);
    const team = machines.filter((machine) => buttons(machine).mine !== true);
    blocks.push({ type: 'header', text: plainText(`Your machines (${own.length})`, LIMITS.headerText) });
    if (own.length === 0) {
      blocks.push(
        section(
          team.length === 0
            ? `No machines yet. Create one with \`${SLASH_COMMAND} create\`.`
            : 'None of the machines your key sees is yours.',
        ),
      );
    }
    const card = (machine: Machine): KnownBlock[] => {
      const lease = leases.get(machine.id);
      return [
        { type: 'divider' },
        ...machineCard(machine, { compact: true, buttons: buttons(machine), ...(lease ? { lease } : {}) }),
      ];
    };
    const teamHeader: KnownBlock = {
      type: 'header',
      text: plainText(`Team machines (${team.length})`, LIMITS.headerText),
    };
    // Own machines first, then the team's under their own header: as many as fit, in that order.
    const rows = [...own.map(card), ...(team.length > 0 ? [[teamHeader], ...team.map(card)] : [])];
    const fit = rowsThatFit(rows, [...blocks, footer], [moreMachines(machines.length)], VIEW_BUDGET);
    // A team header with none of its machines under it says nothing: it goes with them.
    const shownRows = rows.slice(0, fit).filter((row, index) => row[0] !== teamHeader || index < fit - 1);
    for (const row of shownRows) blocks.push(...row);
    const hidden = machines.length - shownRows.filter((row) => row[0] !== teamHeader).length;
    if (hidden > 0) blocks.push(moreMachines(hidden));
  }
  blocks.push(footer);
  return { type: 'home', blocks };
}

/** The machines the Home had no room for, and the command that lists them all. */
function moreMachines(count: number): KnownBlock {
  return contextLine(
    `…and ${plural(count, 'more machine')}, too many to show here: \`${SLASH_COMMAND} list\` lists them all, with their buttons.`,
  );
}
