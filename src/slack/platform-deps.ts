// What the Slack platform itself needs to build an interaction and answer a person, passed in once by
// bot.ts (tests pass their own). No store: what a feature keeps is handed to that feature alone, with
// the repositories it declares (features/feature-deps.ts).
import type { Logger } from 'pino';
import type { PaperspaceClientFactory } from '../vault/paperspace-clients.js';
import type { ChannelPacer } from './channel-pacer.js';

export interface PlatformDeps {
  /** The person's own Paperspace client, with the key they linked. */
  clients: PaperspaceClientFactory;
  logger: Logger;
  /**
   * The bot's one channel pacer, the scheduler's too: the cards and posts a listener makes in a channel
   * take their turns with the completions, reminders and digests posted there, at Slack's pace, in order.
   */
  pacer: ChannelPacer;
}
