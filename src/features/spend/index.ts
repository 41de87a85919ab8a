// The cost guard's spend side: `/ps spend` (with Assign on its rows of machines with no owner yet), and the team digest (its commands, its Stop buttons and the
// job that posts it). running-cost.ts is the one definition of running time and cost, also read by
// /ps usage and the cost alerts.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { digestStopHandler } from './buttons/digest-stop.js';
import { spendAssignHandler } from './buttons/spend-assign.js';
import { spendPageHandler } from './buttons/spend-page.js';
import { digestOperation } from './commands/digest.js';
import { digestOffOperation } from './commands/digest-off.js';
import { spendOperation } from './commands/spend.js';
import { spendJobPlan } from './jobs.js';
import { spendNeeds } from './spend-deps.js';

export const spendFeature = {
  needs: spendNeeds,
  operations: [spendOperation, digestOperation, digestOffOperation],
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.digestStop, digestStopHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.spendPage, spendPageHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.spendAssign, spendAssignHandler(deps));
  },
  jobs: spendJobPlan,
} as const satisfies Feature<typeof spendNeeds>;
