// What the machines feature does through features above it. machines is the lowest feature: the
// approvals feature (which decides and carries out requests with machines' own flows) and the App
// Home (which draws machines' cards) both import it, so machines cannot import them back.
// features/index.ts hands these in instead: where a click on someone else's machine goes, and how a
// Home or a list a click came from is drawn again.
import type { WebClient } from '@slack/web-api';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { PageValue } from '../../slack/block-kit/paging.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { Interaction } from '../../slack/interaction.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { CardLease } from './blocks/machine-card.js';
import type { PowerVerb } from './machine-operations.js';
import type { MachinesDeps } from './machines-deps.js';
import type { PowerRequest } from './power-request.js';

/** Requests to the people who may do what the person asked (approvals/owner-route.ts, create-route.ts). */
export interface OwnerRequests {
  /**
   * 'own' when the person may power the machine themselves: the caller powers it as usual. 'handled'
   * when it is someone else's, and the request was run under a standing grant or offered.
   */
  routePowerToOwner(
    interaction: Interaction,
    machine: Machine,
    verb: PowerVerb,
    request: Omit<PowerRequest, 'actor' | 'machine' | 'verb' | 'deps'> & { deps: MachinesDeps },
  ): Promise<'own' | 'handled'>;
  /**
   * After Paperspace refused a power change, or the budget gate stopped a start: true when it was
   * answered with an offer to ask instead, or sent to the administrators as a request.
   */
  offerPowerRequest(
    error: unknown,
    interaction: Interaction,
    machine: Machine,
    verb: PowerVerb,
    deps: MachinesDeps,
  ): Promise<boolean>;
  /**
   * After Paperspace refused a member's create in the form, or the budget gate stopped it: the request is sent to the administrators
   * at once, and what happened is returned for the modal to say; undefined when the error was no such
   * refusal (the caller reports it as usual).
   */
  requestCreateInstead(
    error: unknown,
    params: Record<string, unknown>,
    requester: CreateRequester,
  ): Promise<string | undefined>;
  /**
   * After Paperspace refused an inline create, or the budget gate stopped it: true when it was answered
   * with an offer to ask instead, or sent to the administrators as a request.
   */
  offerCreateRequest(
    error: unknown,
    params: Record<string, unknown>,
    requester: CreateRequester & { tell: (message: SlackMessage) => Promise<void> },
  ): Promise<boolean>;
}

/** Who asks, and where they asked from (undefined: App Home, answered in their DM). */
export interface CreateRequester {
  deps: MachinesDeps;
  web: WebClient;
  user: SlackUser;
  client: PaperspaceClient;
  channel: string | undefined;
}

export interface MachinesWiring {
  requests: OwnerRequests;
  /**
   * The lease of each of `machines` the team's policies stop, by machine id, for their cards
   * (features/policies/card-leases.ts): store reads alone.
   */
  leases(
    deps: MachinesDeps,
    user: SlackUser,
    paperspaceTeamId: string | null,
    machines: readonly Machine[],
  ): Promise<ReadonlyMap<string, CardLease>>;
  /** Draws the person's App Home again (features/home/publish-home.ts). */
  refreshHome(web: WebClient, deps: MachinesDeps, user: SlackUser): Promise<void>;
  /**
   * A list page drawn again for the person who clicked one of its rows (catalog/list-message.ts);
   * undefined when they have no linked key.
   */
  listPage(clicker: Interaction, page: PageValue, deps: MachinesDeps): Promise<SlackMessage | undefined>;
}
