// Everything a listener may use, passed in once by main.ts (tests pass their own). Listeners stay
// thin: ack, parse, call a service or the user's client, render blocks.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { AuditTrail } from '../store/audit-trail.js';
import type { Store } from '../store/store.js';
import type { MachineWatcher, Watch } from '../store/watch-types.js';
import type { KeyVault } from '../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../vault/paperspace-clients.js';
import type { ChannelPacer } from './channel-pacer.js';

export interface ListenerDeps {
  clients: PaperspaceClientFactory;
  vault: KeyVault;
  store: Store;
  audit: AuditTrail;
  watcher: MachineWatcher;
  logger: Logger;
  now: () => number;
  /**
   * The bot's one channel pacer, the scheduler's too: the cards and posts a listener makes in a channel
   * take their turns with the completions, reminders and digests posted there, at Slack's pace, in order.
   */
  pacer: ChannelPacer;
  /**
   * Redraws the row of a reminder, forgotten-machine alert or team digest that `watch` was started from
   * (a Stop on the row), ending it with `line`. Those messages are drawn by features above the machines
   * feature, which ends such a watch when a newer operation takes it over: the drawing is handed in
   * here (features/index.ts). Does nothing for a watch with a card of its own; never throws.
   */
  redrawRow(web: WebClient, watch: Watch, line: string): Promise<void>;
}
