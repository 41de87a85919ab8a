// What every machine card button needs to know about a click: who clicked (they act with their own
// key, never the card poster's), where the card is (a channel message to update in place, an ephemeral
// reply with nothing to update, or App Home), and how to answer the clicker alone.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { describeError } from '../../../errors/describe-error.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import type { Machine } from '../../../paperspace/schemas.js';
import type { ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import {
  type ButtonArgs,
  type ButtonClick,
  buttonHandler,
  type ClickReceipt,
} from '../../../slack/button-click.js';
import type { PlatformDeps } from '../../../slack/platform-deps.js';
import { decodeMachineRef, listPageFromBlockId } from '../blocks/machine-ref.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { MachinesWiring } from '../machines-wiring.js';

export type CardLocation =
  | { kind: 'message'; channel: string; ts: string; threadTs?: string }
  /**
   * An ephemeral reply (Slack sends no message), or a card unfurled under someone's message (the
   * message is theirs, not the app's): either way there is nothing the app may update.
   */
  | { kind: 'ephemeral'; channel: string }
  /** App Home (or a modal): no channel at all. */
  | { kind: 'home' };

export interface MachineClick extends ButtonClick {
  card: CardLocation;
  /** Replaces the ephemeral card that was clicked; a no-op elsewhere. */
  replaceEphemeral(message: SlackMessage): Promise<void>;
}

function locate(body: BlockAction): CardLocation {
  const channel = body.channel?.id ?? stringOf(body.container.channel_id);
  if (channel !== undefined && (body.container.is_ephemeral === true || isUnfurl(body)))
    return { kind: 'ephemeral', channel };
  if (channel !== undefined && body.message !== undefined) {
    const threadTs = stringOf(body.message.thread_ts);
    return { kind: 'message', channel, ts: body.message.ts, ...(threadTs ? { threadTs } : {}) };
  }
  return { kind: 'home' };
}

/** A click in an app unfurl: Slack names the unfurled link in the container. */
function isUnfurl(body: BlockAction): boolean {
  return body.container.is_app_unfurl === true;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where a modal opened from this card answers after its submission. */
export function modalContextOf(card: CardLocation): ModalContext {
  if (card.kind === 'home') return {};
  if (card.kind === 'ephemeral') return { channelId: card.channel };
  return {
    channelId: card.channel,
    messageTs: card.ts,
    ...(card.threadTs ? { threadTs: card.threadTs } : {}),
  };
}

function machineClickOf(click: ButtonClick, { body, respond }: ButtonArgs<BlockAction>): MachineClick {
  const card = locate(body);
  const hasResponseUrl = typeof body.response_url === 'string' && body.response_url !== '';
  return {
    ...click,
    card,
    async replaceEphemeral(message) {
      // An unfurl stays as it is: replacing the "original" would replace the poster's own message.
      if (card.kind === 'ephemeral' && hasResponseUrl && !isUnfurl(body))
        await respond({ replace_original: true, ...message });
    },
  };
}

/**
 * A card button's listener: the platform's click handling (ack at once, the clicker's context, any
 * failure told to the clicker alone, and the card stays as it was), with where the card is.
 */
export function cardAction<A extends BlockAction>(
  deps: PlatformDeps,
  handle: (click: MachineClick, action: A['actions'][number]) => Promise<void>,
  receive?: ClickReceipt<A>,
): (args: ButtonArgs<A>) => Promise<void> {
  return buttonHandler<A>(deps, (click, args) => handle(machineClickOf(click, args), args.action), receive);
}

/**
 * The machine a card's button names, read afresh with the clicker's own key (the card may be old);
 * undefined when they have no key linked, and were told how to link one.
 */
export async function clickedMachine(
  click: Pick<ButtonClick, 'userClient'>,
  action: Pick<ButtonAction, 'value'>,
): Promise<{ client: PaperspaceClient; machine: Machine } | undefined> {
  const ref = decodeMachineRef(action.value ?? '');
  const client = await click.userClient();
  if (!client) return undefined;
  return { client, machine: await client.machines.show(ref.id) };
}

/**
 * A click on a row of a list (an ephemeral reply): the page is drawn again for the clicker, so only that
 * row changes. Nothing for a card that is no list row. A page that cannot be drawn again is left as it
 * was (logged): what the click did was done, and it is not reported as failed.
 */
export async function redrawListRow(
  click: MachineClick,
  blockId: string,
  listPage: MachinesWiring['listPage'],
  deps: MachinesDeps,
): Promise<void> {
  const page = click.card.kind === 'ephemeral' ? listPageFromBlockId(blockId) : undefined;
  if (page === undefined) return;
  try {
    const redrawn = await listPage(click, page, deps);
    if (redrawn !== undefined) await click.replaceEphemeral(redrawn);
  } catch (error) {
    click.logger.warn(
      { error: describeError(error) },
      'could not draw a list again after a click on its row',
    );
  }
}
