// Budgets: `/ps budget`, the count of each team's spend from the scheduler's list, and the 50/80/100%
// alerts. The gate before a start or create is the machines feature's (budget-gate.ts), and what it
// stops becomes a request through approvals (budget-route.ts).
import type { Feature } from '../feature.js';
import { planJobs } from '../job-needs.js';
import { alertBudgets, budgetAlertNeeds } from './budget-alerts.js';
import { budgetCheckNeeds, createBudgetCheck } from './budget-check.js';
import { createBudgetTeams } from './budget-teams.js';
import { budgetsNeeds } from './budgets-deps.js';
import { budgetOperation } from './commands/budget.js';

export function createBudgetsFeature() {
  // Shared by the alert tick, which reads every budget, and the count's synchronous `due`.
  const teams = createBudgetTeams();
  return {
    needs: budgetsNeeds,
    operations: [budgetOperation],
    jobs: planJobs(budgetAlertNeeds, (deps) => [{ name: 'budgets', tick: () => alertBudgets(deps, teams) }]),
    machineChecks: planJobs(budgetCheckNeeds, (deps) => [createBudgetCheck(deps, teams)]),
  } as const satisfies Feature<typeof budgetsNeeds>;
}
