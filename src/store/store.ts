// The bot's persistence: one async interface whatever the database. openStore picks the adapter
// from DATABASE_URL, applies pending migrations and hands back the repositories.
import { type DatabaseConfig, parseDatabaseUrl } from '../config.js';
import { type ApprovalRequestRepository, createApprovalRequestRepository } from './approval-requests.js';
import { type AuditRepository, createAuditRepository } from './audit-records.js';
import { type BudgetRepository, createBudgetRepository } from './budgets.js';
import { type ChannelPostSlotRepository, createChannelPostSlotRepository } from './channel-post-slots.js';
import { type CostAlertRepository, createCostAlertRepository } from './cost-alerts.js';
import { createDelegationRepository, type DelegationRepository } from './delegations.js';
import { createMachineOwnerRepository, type MachineOwnerRepository } from './machine-owners.js';
import { migrate } from './migrations.js';
import { describePostgresUrl, openPostgresClient } from './postgres-client.js';
import { createPowerClaimRepository, type PowerClaimRepository } from './power-claims.js';
import { createReceivedRequestRepository, type ReceivedRequestRepository } from './received-requests.js';
import { createSnoozeRepository, type SnoozeRepository } from './reminder-snoozes.js';
import { createReminderRepository, type ReminderRepository } from './reminders.js';
import { createRequestReplayRepository, type RequestReplayRepository } from './request-replays.js';
import { createRowMessageRepository, type RowMessageRepository } from './row-messages.js';
import {
  createSlackInstallationRepository,
  type SlackInstallationRepository,
} from './slack-installations.js';
import { createSlackbotProposalRepository, type SlackbotProposalRepository } from './slackbot-proposals.js';
import { type SqlClient, type SqlDialect, StoreError } from './sql-client.js';
import { openSqliteClient } from './sqlite-client.js';
import { createTeamDigestRepository, type TeamDigestRepository } from './team-digests.js';
import { createTeamPolicyRepository, type TeamPolicyRepository } from './team-policies.js';
import { createVaultEntryRepository, type VaultEntryRepository } from './vault-entries.js';
import { createWatchLeaseRepository, type WatchLeaseRepository } from './watch-leases.js';
import { createWatchRepository, type WatchRepository } from './watches.js';
import { createWorkflowStepRunRepository, type WorkflowStepRunRepository } from './workflow-step-runs.js';
import {
  createWorkflowStepSettingRepository,
  type WorkflowStepSettingRepository,
} from './workflow-step-settings.js';
import { createWorkspacePurge, type WorkspacePurge } from './workspace-purge.js';

export interface Store {
  readonly dialect: SqlDialect;
  readonly vaultEntries: VaultEntryRepository;
  readonly audit: AuditRepository;
  readonly watches: WatchRepository;
  readonly watchLeases: WatchLeaseRepository;
  readonly reminders: ReminderRepository;
  readonly snoozes: SnoozeRepository;
  readonly delegations: DelegationRepository;
  readonly approvals: ApprovalRequestRepository;
  readonly requestReplays: RequestReplayRepository;
  readonly workspaces: WorkspacePurge;
  readonly teamDigests: TeamDigestRepository;
  readonly costAlerts: CostAlertRepository;
  readonly powerClaims: PowerClaimRepository;
  /** Whose each machine is where Paperspace does not say (v1): read through domain/machine-owner.ts. */
  readonly machineOwners: MachineOwnerRepository;
  /** OAuth installations (SLACK_CLIENT_ID mode): each workspace's sealed bot token. */
  readonly slackInstallations: SlackInstallationRepository;
  readonly workflowSteps: WorkflowStepSettingRepository;
  /** The step runs taken on, so a run Slack delivers again is run once across replicas. */
  readonly workflowStepRuns: WorkflowStepRunRepository;
  /** Changes Slackbot proposed, waiting for the person's Confirm in their DM. */
  readonly slackbotProposals: SlackbotProposalRepository;
  /** The kept drawings of messages with a row per machine, so a watch can redraw its row. */
  readonly rowMessages: RowMessageRepository;
  /** Each channel's next chat.postMessage slot, so the replicas together keep Slack's pace there. */
  readonly postSlots: ChannelPostSlotRepository;
  /** Each Paperspace team's monthly budgets, their last counted spend and the alerts sent. */
  readonly budgets: BudgetRepository;
  /** Each Paperspace team's run limits and off-hours, with exemptions and extensions. */
  readonly policies: TeamPolicyRepository;
  /** The changes people asked for and were acked, until each reaches its intent or its answer. */
  readonly receivedRequests: ReceivedRequestRepository;
  /** Resolves when the database answers a query; for health checks. */
  ping(): Promise<void>;
  /** Waits for running statements, then closes the connection. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Clock for the migration history; defaults to Date.now. */
  now?: () => number;
}

/** Migrates the database behind `client` and builds the repositories on it. */
async function createStore(client: SqlClient, { now = Date.now }: StoreOptions = {}): Promise<Store> {
  try {
    await migrate(client, now);
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    dialect: client.dialect,
    vaultEntries: createVaultEntryRepository(client),
    audit: createAuditRepository(client),
    watches: createWatchRepository(client),
    watchLeases: createWatchLeaseRepository(client),
    reminders: createReminderRepository(client),
    snoozes: createSnoozeRepository(client),
    delegations: createDelegationRepository(client),
    approvals: createApprovalRequestRepository(client),
    requestReplays: createRequestReplayRepository(client),
    workspaces: createWorkspacePurge(client),
    teamDigests: createTeamDigestRepository(client),
    costAlerts: createCostAlertRepository(client),
    powerClaims: createPowerClaimRepository(client),
    machineOwners: createMachineOwnerRepository(client),
    slackInstallations: createSlackInstallationRepository(client),
    workflowSteps: createWorkflowStepSettingRepository(client),
    workflowStepRuns: createWorkflowStepRunRepository(client),
    slackbotProposals: createSlackbotProposalRepository(client),
    rowMessages: createRowMessageRepository(client),
    postSlots: createChannelPostSlotRepository(client),
    budgets: createBudgetRepository(client),
    policies: createTeamPolicyRepository(client),
    receivedRequests: createReceivedRequestRepository(client),
    ping: async () => {
      await client.get('SELECT 1 AS ok');
    },
    close: () => client.close(),
  };
}

/** Opens the database named by DATABASE_URL (parsed, or as the raw `sqlite:PATH` / `postgres://` text). */
export async function openStore(
  database: DatabaseConfig | string,
  options: StoreOptions = {},
): Promise<Store> {
  const target = typeof database === 'string' ? parseDatabaseUrl(database) : database;
  if ('error' in target) throw new StoreError(`DATABASE_URL ${target.error}`);
  if (target.kind === 'postgres') return createStore(await connectPostgres(target.connectionString), options);
  let client: SqlClient;
  try {
    client = openSqliteClient(target.path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(`Cannot open the SQLite database ${target.path}: ${reason}`, { cause: error });
  }
  return createStore(client, options);
}

/** Opens the pool and checks that the server answers, so a wrong URL fails with a plain reason. */
async function connectPostgres(connectionString: string): Promise<SqlClient> {
  const client = openPostgresClient(connectionString);
  try {
    await client.get('SELECT 1 AS ok');
    return client;
  } catch (error) {
    await client.close();
    throw new StoreError(
      `Cannot connect to the PostgreSQL database ${describePostgresUrl(connectionString)}: ${reasonOf(error)}`,
      { cause: error },
    );
  }
}

// Node reports a refused connection to a name with several addresses (localhost: ::1 and 127.0.0.1)
// as an AggregateError with an empty message; its parts say what happened.
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(reasonOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}
