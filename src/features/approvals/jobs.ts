// The approvals' work for the scheduler: open requests whose time is up are closed as expired (once,
// across replicas: the same conditional UPDATE as a decision), their copies updated, and the
// requester told.
import type { SchedulerJob } from '../../scheduler/job.js';
import { type JobDepsOf, type JobPlan, planJobs } from '../job-needs.js';
import { requestSubject } from './blocks/request-messages.js';
import { refreshMessages, tellRequester } from './request-announcements.js';
import { type RequestSettled, tellWaiting } from './request-settled.js';

const BATCH = 50;

const needs = { store: ['approvals', 'audit'], uses: ['slack', 'pacer', 'logger', 'now'] } as const;

export function approvalJobPlan(settled: RequestSettled): JobPlan<SchedulerJob> {
  return planJobs(needs, (deps) => [{ name: 'approvals', tick: () => expireDue(deps, settled) }]);
}

async function expireDue(deps: JobDepsOf<typeof needs>, settled: RequestSettled): Promise<void> {
  const now = deps.now();
  for (const request of await deps.store.approvals.dueToExpire(now, BATCH)) {
    const expired = await deps.store.approvals.decide(request.id, {
      status: 'expired',
      by: 'expiry',
      at: now,
    });
    if (!expired) continue;
    await deps.store.audit.record({
      teamId: request.teamId,
      userId: request.requesterId,
      action: 'approval.expire',
      resourceId: request.id,
      outcome: 'ok',
      message: `${request.kind} ${request.machineName ?? ''}`.trim(),
      at: now,
    });
    const web = await deps.slack(request.teamId);
    await refreshMessages({ deps, web }, request.id);
    await tellRequester(
      { web, deps },
      request,
      `⌛ Your request to ${requestSubject(request)} expired before anyone decided it.`,
    );
    await tellWaiting({ settled, web, logger: deps.logger }, request, { status: 'expired' });
  }
}
