// App Home: whether the viewer's key is linked and, if it is, their machines as compact cards (whose
// buttons the machine actions answer). Published when the Home tab is opened, again after a login or
// logout (never a stale link), and after a power change asked from it, when it is sent and when its
// watch ends (never a stale state). A failure is shown in the view; the tab never stays blank.
import type { HomeView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { messageForUser } from '../../errors/user-message.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { ListenerWiring } from '../feature-deps.js';
import { viewerButtons } from '../machines/machine-permissions.js';
import { cardLeases } from '../policies/card-leases.js';
import { homeView } from './blocks/home.js';

/**
 * What drawing a person's Home needs: their key's account and client, a log, and the team's policies
 * with the runs they count from (the lease of each running team machine).
 */
export type PublishHomeDeps = Pick<ListenerWiring, 'clients' | 'logger' | 'now'> & {
  store: Pick<Store, 'approvals' | 'vaultEntries' | 'machineOwners' | 'policies' | 'costAlerts'>;
  vault: Pick<KeyVault, 'account' | 'maskedKey'>;
};

/** Renders and publishes the Home tab of one person; Slack errors are logged, not thrown. */
export async function publishHome(client: WebClient, deps: PublishHomeDeps, user: SlackUser): Promise<void> {
  const view = await homeOf(deps, user);
  try {
    await client.views.publish({ user_id: user.userId, view });
  } catch (error) {
    deps.logger.warn({ err: error, user: user.userId }, 'could not publish the App Home');
  }
}

async function homeOf(deps: PublishHomeDeps, user: SlackUser): Promise<HomeView> {
  let account: Awaited<ReturnType<PublishHomeDeps['vault']['account']>>;
  try {
    account = await deps.vault.account(user);
  } catch (error) {
    return homeView({ linked: undefined, machines: [], error: messageForUser(error, deps.logger) });
  }
  if (account === undefined) return homeView({ linked: undefined, machines: [] });
  const linked = { maskedKey: '••••', account: account.email };
  try {
    linked.maskedKey = (await deps.vault.maskedKey(user)) ?? linked.maskedKey;
    const client = await deps.clients.forUser(user);
    if (client === undefined) return homeView({ linked: undefined, machines: [] });
    // Started before the machines are listed, so a role it needs is read beside them and kept per team.
    const buttonsFor = viewerButtons(deps, { user, client, account });
    const machines: Machine[] = [];
    for await (const machine of client.machines.listAll()) machines.push(machine);
    const [buttons, leases] = await Promise.all([
      buttonsFor(machines),
      cardLeases(deps, user, account.teamId, machines),
    ]);
    return homeView({ linked, machines, buttons, leases });
  } catch (error) {
    return homeView({ linked, machines: [], error: messageForUser(error, deps.logger) });
  }
}
