// Counting budgets' spend from the list the scheduler already makes (as the cost guard does): when a
// linked person of a workspace with budgets is listed, their Paperspace team's spend is counted with
// their key, at most once per CHECK_EVERY_MS per team across replicas (the store's claim), so the
// gate and the alerts read figures at most that old, and Paperspace gets no list call of its own.
import { describeError } from '../../errors/describe-error.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import { createCheckStarts } from '../cost-alerts/check-starts.js';
import { CHECK_EVERY_MS } from '../cost-alerts/cost-guard.js';
import type { JobResources } from '../job-needs.js';
import { countBudgets } from './budget-count.js';
import type { BudgetTeams } from './budget-teams.js';

export const budgetCheckNeeds = {
  store: ['budgets', 'vaultEntries', 'machineOwners'],
  uses: ['vault', 'clients', 'logger', 'now'],
} as const;

type CheckDeps = Pick<JobResources, (typeof budgetCheckNeeds)['uses'][number]> & {
  store: Pick<JobResources['store'], (typeof budgetCheckNeeds)['store'][number]>;
};

export function createBudgetCheck(deps: CheckDeps, teams: BudgetTeams): PersonMachineCheck {
  const starts = createCheckStarts(CHECK_EVERY_MS);
  const keyOf = (user: { teamId: string; userId: string }) => `${user.teamId}/${user.userId}`;
  return {
    name: 'budgets',
    due: (user, now) => teams.has(user.teamId) && starts.due(keyOf(user), now),
    async check(user, machines, client) {
      const now = deps.now();
      if (!teams.has(user.teamId) || !starts.begin(keyOf(user), now)) return;
      const account = await deps.vault.account(user);
      if (!account?.teamId) return;
      if (!(await deps.store.budgets.claimCheck(user.teamId, account.teamId, now, now - CHECK_EVERY_MS)))
        return;
      try {
        await countBudgets(
          deps,
          { user, client, paperspaceUserId: account.userId, listed: machines },
          account.teamId,
        );
      } catch (error) {
        deps.logger.warn({ error: describeError(error) }, "could not count a team's budget spend");
      }
    },
  };
}
