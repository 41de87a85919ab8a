// The cost guard: `/ps alerts`, the forgotten-machine alert's Stop, Keep running, Not this machine and
// Stop all buttons, and the check that reads each person's machines from the tick's one list call.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { planJobs } from '../job-needs.js';
import { alertKeepHandler } from './buttons/alert-keep.js';
import { alertNeverHandler } from './buttons/alert-never.js';
import { alertStopHandler } from './buttons/alert-stop.js';
import { alertStopAllHandler } from './buttons/alert-stop-all.js';
import { alertsOperation } from './commands/alerts.js';
import { costAlertsNeeds } from './cost-alerts-deps.js';
import { createCostGuard } from './cost-guard.js';

export const costAlertsFeature = {
  needs: costAlertsNeeds,
  operations: [alertsOperation],
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.costAlertStop, alertStopHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.costAlertKeep, alertKeepHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.costAlertNever, alertNeverHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.costAlertStopAll, alertStopAllHandler(deps));
  },
  machineChecks: planJobs(
    {
      store: ['costAlerts', 'audit', 'machineOwners', 'vaultEntries', 'approvals', 'rowMessages'],
      uses: ['vault', 'slack', 'pacer', 'logger', 'now'],
    },
    (deps) => [
      createCostGuard({
        store: deps.store,
        vault: deps.vault,
        slack: deps.slack,
        pacer: deps.pacer,
        logger: deps.logger,
        now: deps.now,
      }),
    ],
  ),
} as const satisfies Feature<typeof costAlertsNeeds>;
