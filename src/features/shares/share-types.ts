// What making a share takes and gives, for sharing.ts, share-with-accessors.ts and claims, and how a
// share button's click builds what it takes.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Machine } from '../../paperspace/schemas.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { Delegation } from '../../store/delegations.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import type { Recipient } from './accessor-grants.js';
import type { SharesDeps } from './shares-deps.js';

export interface SharingDeps {
  store: Pick<Store, 'delegations'>;
  audit: AuditTrail;
  /** The bot's Web API client. */
  slack: WebClient;
  /** Each person's own Paperspace client: whether they can already use a machine (accessor-grants.ts). */
  clients: Pick<PaperspaceClientFactory, 'forUser' | 'linkedClient'>;
  /** The share's post takes its turn in the channel with the bot's other posts there. */
  pacer: ChannelPacer;
  now: () => number;
  logger: Logger;
}

/** What a click on a share's buttons hands to sharing: the bot's deps, the click's client and logger. */
export function sharingDeps(deps: SharesDeps, slack: WebClient, logger: Logger): SharingDeps {
  const { store, audit, clients, pacer, now } = deps;
  return { store, audit, slack, clients, pacer, now, logger };
}

export type SharedMachine = Pick<Machine, 'id' | 'name'>;

export interface ShareRequest {
  user: SlackUser;
  /** The channel whose members get the share; the post goes there and nowhere else. */
  channel: string;
  /** Machines already found with the sharer's key (so they can see them). */
  machines: SharedMachine[];
  /** The teammates named, given access at once; the channel's other members claim it. */
  recipients?: Recipient[];
}

export interface Share {
  delegation: Delegation;
  post: { channel: string; ts: string };
}
