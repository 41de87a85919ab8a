// Which workspaces hold budgets, as this replica's alert tick last read them: the count's `due` asks it
// (it cannot wait on the store), so a person whose workspace has none is never listed for budgets.
import type { Budget } from '../../store/budgets.js';

export interface BudgetTeams {
  note(budgets: readonly Budget[]): void;
  has(teamId: string): boolean;
}

export function createBudgetTeams(): BudgetTeams {
  let teams = new Set<string>();
  return {
    note(budgets) {
      teams = new Set(budgets.map((budget) => budget.teamId));
    },
    has: (teamId) => teams.has(teamId),
  };
}
