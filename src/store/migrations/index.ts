// Every schema migration, in the order they apply (by version, 1 up): one file each beside this one,
// named for its version and what it does, so a new migration is a new file and a line here, and a
// shipped one is never touched. migrate() (../migrations.ts) refuses a database whose history
// disagrees with this list.
import { vaultEntries } from './001-vault-entries.js';
import { auditRecords } from './002-audit-records.js';
import { watches } from './003-watches.js';
import { reminders } from './004-reminders.js';
import { delegations } from './005-delegations.js';
import { oneActiveWatchPerCard } from './006-one-active-watch-per-card.js';
import { snoozeMachineName } from './007-snooze-machine-name.js';
import { watchOutcomeOutbox } from './008-watch-outcome-outbox.js';
import { pollLeasesByPerson } from './009-poll-leases-by-person.js';
import { approvalRequests } from './010-approval-requests.js';
import { approvalRoles } from './011-approval-roles.js';
import { v1AccessorSharesAndWatchEvents } from './012-v1-accessor-shares-and-watch-events.js';
import { requestReplaysAndReminderSlots } from './013-request-replays-and-reminder-slots.js';
import { teamDigests } from './014-team-digests.js';
import { costAlerts } from './015-cost-alerts.js';
import { watchSlotsAndReportSending } from './016-watch-slots-and-report-sending.js';
import { powerClaims } from './017-power-claims.js';
import { slackInstallations } from './018-slack-installations.js';
import { workflowSteps } from './019-workflow-steps.js';
import { approvalRequestSteps } from './020-approval-request-steps.js';
import { auditByResourceAndGrantExpiry } from './021-audit-by-resource-and-grant-expiry.js';
import { rowMessages } from './022-row-messages.js';
import { channelPostSlots } from './023-channel-post-slots.js';
import { watchLeaseMirrorDroppedCostRunsByOwner } from './024-watch-lease-mirror-dropped-cost-runs-by-owner.js';
import { ownerAndMachineLookups } from './025-owner-and-machine-lookups.js';
import { machineOwners } from './026-machine-owners.js';
import { costAlertRecipients } from './027-cost-alert-recipients.js';
import { slackbotProposals } from './028-slackbot-proposals.js';
import { workflowStepRuns } from './029-workflow-step-runs.js';
import { watchIntents } from './030-watch-intents.js';
import { budgets } from './031-budgets.js';
import { teamPolicies } from './032-team-policies.js';
import { receivedRequests } from './033-received-requests.js';
import type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  vaultEntries,
  auditRecords,
  watches,
  reminders,
  delegations,
  oneActiveWatchPerCard,
  snoozeMachineName,
  watchOutcomeOutbox,
  pollLeasesByPerson,
  approvalRequests,
  approvalRoles,
  v1AccessorSharesAndWatchEvents,
  requestReplaysAndReminderSlots,
  teamDigests,
  costAlerts,
  watchSlotsAndReportSending,
  powerClaims,
  slackInstallations,
  workflowSteps,
  approvalRequestSteps,
  auditByResourceAndGrantExpiry,
  rowMessages,
  channelPostSlots,
  watchLeaseMirrorDroppedCostRunsByOwner,
  ownerAndMachineLookups,
  machineOwners,
  costAlertRecipients,
  slackbotProposals,
  workflowStepRuns,
  watchIntents,
  budgets,
  teamPolicies,
  receivedRequests,
];
