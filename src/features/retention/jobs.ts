// Rows that only ever grow get a retention: audit records (one or more for every action of every
// person), channel shares long expired, approval requests once decided and standing grants once run
// out, power claims (a few seconds' worth each, one row per machine),
// channels' post slots (a second's worth each, one row per channel) and the claims of workflow step
// runs (one per run, needed only while Slack may still deliver the run again).
// Once a day a replica deletes what is past AUDIT_RETENTION_DAYS and DELEGATION_RETENTION_DAYS. Every
// replica may run it: deleting rows already deleted is a no-op.
// A decided request is kept as long as audit records: the spend report finds the person a machine was
// approved for through the audit record of its create, which names the request, so the two age out
// together. A grant that ran out answers nothing (grantedBy asks for one still running) and is kept
// as long as an expired share, for whoever reads the database after a dispute. So is the claim of a
// forgotten-machine alert (one row per alert) once its run is over: only a claim whose run is still
// followed with its arming can stop a second post (store/cost-alerts.ts).
import type { SchedulerJob } from '../../scheduler/job.js';
import { type JobDepsOf, planJobs } from '../job-needs.js';

const DAY_MS = 24 * 60 * 60_000;
/** Pruning is about disk space, not freshness: once a day is plenty. */
const PRUNE_EVERY_MS = DAY_MS;
/**
 * Rows deleted per statement: the first prune after an upgrade may meet a year of rows, and one
 * statement deleting them all would hold its locks (and the tick) for a long time.
 */
const PRUNE_BATCH = 5000;
/**
 * A kept drawing of a message with rows (store/row-messages.ts) serves the watches its clicks start,
 * which end within their deadline (30 minutes by default); a click on an older message starts again
 * from the message as Slack shows it.
 */
export const KEEP_ROW_MESSAGES_MS = 7 * DAY_MS;
/**
 * A step run's claim (store/workflow-step-runs.ts) stops a second delivery of the run: Slack redelivers
 * an event it thinks went unanswered a few times within minutes, so a day is ample.
 */
export const KEEP_STEP_RUNS_MS = DAY_MS;

/** The repositories it prunes, and what it prunes them by. */
const needs = {
  store: [
    'audit',
    'delegations',
    'approvals',
    'costAlerts',
    'powerClaims',
    'rowMessages',
    'postSlots',
    'workflowStepRuns',
    'policies',
  ],
  uses: ['now', 'logger', 'retention'],
} as const;

export function retentionJobs(deps: JobDepsOf<typeof needs>): SchedulerJob[] {
  const { store, now, logger, retention } = deps;
  let lastPrune = Number.NEGATIVE_INFINITY;

  const inBatches = async (prune: (limit: number) => Promise<number>) => {
    let total = 0;
    for (;;) {
      const deleted = await prune(PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  };

  return [
    {
      name: 'retention',
      async tick() {
        const at = now();
        if (at - lastPrune < PRUNE_EVERY_MS) return;
        lastPrune = at;
        const auditBefore = at - retention.auditDays * DAY_MS;
        const delegationsBefore = at - retention.delegationDays * DAY_MS;
        const audit = await inBatches((limit) => store.audit.pruneBefore(auditBefore, limit));
        const delegations = await inBatches((limit) =>
          store.delegations.pruneExpiredBefore(delegationsBefore, limit),
        );
        const requests = await inBatches((limit) => store.approvals.pruneDecidedBefore(auditBefore, limit));
        const grants = await inBatches((limit) =>
          store.approvals.pruneGrantsExpiredBefore(delegationsBefore, limit),
        );
        const alertClaims = await inBatches((limit) =>
          store.costAlerts.pruneSettledAlertsBefore(delegationsBefore, limit),
        );
        const powerClaims = await store.powerClaims.pruneExpired(at);
        const rowMessages = await inBatches((limit) =>
          store.rowMessages.pruneBefore(at - KEEP_ROW_MESSAGES_MS, limit),
        );
        // A channel's post slot in the past says nothing (the next post goes at once): one row per channel.
        const postSlots = await store.postSlots.pruneBefore(at);
        const stepRuns = await inBatches((limit) =>
          store.workflowStepRuns.pruneBefore(at - KEEP_STEP_RUNS_MS, limit),
        );
        // Claims of policy warnings and stops long past, and exemptions and extensions that are over.
        const policySteps = await store.policies.prune(delegationsBefore);
        const pruned = {
          audit,
          delegations,
          requests,
          grants,
          alertClaims,
          powerClaims,
          rowMessages,
          postSlots,
          stepRuns,
          policySteps,
        };
        if (Object.values(pruned).some((count) => count > 0)) {
          logger.info({ ...pruned, retention }, 'pruned rows past their retention');
        }
      },
    },
  ];
}

export const retentionJobPlan = planJobs(needs, retentionJobs);
