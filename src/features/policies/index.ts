// The team's guardrails: `/ps policy` and its rules, the warning's Keep running and Stop now, an
// administrator's Approve and Stop with my key, and the check that reads each person's machines from
// the tick's one list call to warn and stop.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { planJobs } from '../job-needs.js';
import { approveExtensionHandler } from './buttons/approve-extension.js';
import { keepRunningHandler } from './buttons/keep-running.js';
import { stopNowHandler } from './buttons/stop-now.js';
import { policyOperation } from './commands/policy.js';
import { policyExemptOperation } from './commands/policy-exempt.js';
import { policyIdleOperation } from './commands/policy-idle.js';
import { policyMaxRunOperation } from './commands/policy-max-run.js';
import { policyOffOperation } from './commands/policy-off.js';
import { policyOffHoursOperation } from './commands/policy-off-hours.js';
import { policiesNeeds } from './policies-deps.js';
import { createPolicyGuard } from './policy-guard.js';

export const policiesFeature = {
  needs: policiesNeeds,
  operations: [
    policyOperation,
    policyMaxRunOperation,
    policyOffHoursOperation,
    policyExemptOperation,
    policyIdleOperation,
    policyOffOperation,
  ],
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.policyKeep, keepRunningHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.policyApproveExtension, approveExtensionHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.policyStopNow, stopNowHandler(deps, 'owner'));
    router.action<BlockAction<ButtonAction>>(
      ActionId.policyStopWithMyKey,
      stopNowHandler(deps, 'administrator'),
    );
  },
  machineChecks: planJobs(
    {
      store: ['policies', 'costAlerts', 'audit', 'machineOwners', 'vaultEntries', 'approvals'],
      uses: ['vault', 'slack', 'pacer', 'logger', 'now', 'clients'],
    },
    (deps) => [
      createPolicyGuard({
        store: deps.store,
        vault: deps.vault,
        slack: deps.slack,
        pacer: deps.pacer,
        logger: deps.logger,
        now: deps.now,
        clients: deps.clients,
      }),
    ],
  ),
} as const satisfies Feature<typeof policiesNeeds>;
