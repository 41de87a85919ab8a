// /ps budget [team|@person] [$amount|off]: the monthly budgets of the person's Paperspace team. Anyone
// in the team reads them; setting, changing or removing one is for Slack workspace admins and owners
// who administer the team (the rule /ps approvals and /ps digest follow), audited, and a refusal names
// the team's linked administrators, who can. A budget set is counted at once with the setter's key,
// so one set below what is already spent alerts on the next tick.
import { z } from 'zod';
import { requireAdministrator } from '../../../domain/team-role.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { BAR_CHART_LIMITS } from '../../../slack/block-kit/bar-chart.js';
import { formatCents } from '../../../slack/block-kit/format.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { mention } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { accept, fail, type Read, tooMany } from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import type { Token } from '../../../slack/command-language/tokenize.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { slackProfile } from '../../../slack/user-profile.js';
import { requireWorkspaceAdmin } from '../../../slack/workspace-admin.js';
import type { Budget, BudgetSubject } from '../../../store/budgets.js';
import type { SlackUser } from '../../../store/slack-user.js';
import { createApprovers } from '../../approvals/approvers.js';
import { budgetLine } from '../../spend/blocks/budget-lines.js';
import { budgetListMessage, budgetName, COUNTED_NOT_GATED } from '../blocks/budget-messages.js';
import { countBudgets } from '../budget-count.js';
import type { BudgetsDeps } from '../budgets-deps.js';

/** A budget above this is a typo, not a plan. */
const MAX_CENTS = 100_000_000_00;

type BudgetParams = { subject: string | null; amountCents: number | null; off: boolean };

const MONEY = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** `$2000`, `2,000`, `$300.50` in cents. */
function readAmount(text: string): Read<number> {
  const match = MONEY.exec(text.trim());
  if (!match) return fail(`Invalid amount ${echo(text)}: give dollars a month, like $2000 or $300.50.`);
  const cents = Number((match[1] ?? '').replaceAll(',', '')) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  if (cents <= 0) return fail('A budget must be more than $0: to remove one, say off.');
  if (cents > MAX_CENTS) return fail(`Invalid amount ${echo(text)}: at most ${formatCents(MAX_CENTS)}.`);
  return accept(cents);
}

function readSubject(token: Token): Read<string> {
  if (token.slackUserId !== null) return accept(token.slackUserId);
  if (token.text.toLowerCase() === 'team') return accept('team');
  return fail(`Invalid budget ${echo(token.text)}: say team, or mention a person (@sam).`);
}

export const budgetOperation = defineOperation({
  name: 'budget',
  usage: `${ps} budget [team|@person] [$amount|off]`,
  summary:
    "Your team's monthly budgets: show them with the month's spend and forecast; administrators set (team, @person) or remove them (off).",
  help: {
    parameters: [
      '`team` or `@person`: whose budget; none: every budget of your team.',
      '`$amount`: dollars a calendar month, as `/ps spend` counts them; `off`: remove it (alone: remove every budget).',
    ],
    examples: [`${ps} budget`, `${ps} budget team $2000`, `${ps} budget @sam $300`, `${ps} budget off`],
    effect:
      'Alerts at 50%, 80% and 100% of a budget; once spent, a member’s starts and creates through the bot become requests to the administrators. Only Slack workspace admins and owners who administer your Paperspace team can change budgets.',
  },
  kind: 'change',
  params: z.object({
    subject: z
      .string()
      .min(1)
      .nullable()
      .describe("Whose budget: 'team', or a Slack user id; null for every budget of the team."),
    amountCents: z
      .number()
      .int()
      .positive()
      .max(MAX_CENTS)
      .nullable()
      .describe('The monthly budget in US cents; null to show or remove.'),
    off: z.boolean().default(false).describe('Remove the budget (every budget when subject is null).'),
  }),
  read(args) {
    const [first, second] = args;
    const extra = tooMany('budget', args, 2, 'whose budget and an amount');
    if (extra !== null) return extra;
    if (first === undefined) return accept({ subject: null, amountCents: null, off: false });
    if (first.text.toLowerCase() === 'off' && second === undefined)
      return accept({ subject: null, amountCents: null, off: true });
    const subject = readSubject(first);
    if (!subject.ok) return subject;
    if (second === undefined)
      return fail(`Missing amount: say how much a month (${ps} budget team $2000), or off.`);
    if (second.text.toLowerCase() === 'off')
      return accept({ subject: subject.value, amountCents: null, off: true });
    const amount = readAmount(second.text);
    return amount.ok ? accept({ subject: subject.value, amountCents: amount.value, off: false }) : amount;
  },
  run: runBudget,
});

const subjectOf = (subject: string): BudgetSubject => (subject === 'team' ? 'team' : { userId: subject });

/** The Slack names of the people with a budget, for the chart's labels (a few users.info calls). */
async function budgetNames(
  budgets: readonly Budget[],
  context: CommandContext,
  deps: BudgetsDeps,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  // A chart draws this many bars by name; the rest share one, so their names are not looked up.
  for (const budget of budgets.slice(0, BAR_CHART_LIMITS.categories)) {
    if (budget.subject === 'team' || names.has(budget.subject.userId)) continue;
    const { name } = await slackProfile(context.web, budget.subject.userId, deps.logger);
    if (name !== undefined) names.set(budget.subject.userId, name);
  }
  return names;
}

async function runBudget(command: BudgetParams, context: CommandContext, deps: BudgetsDeps): Promise<void> {
  const client = await context.userClient();
  if (!client) return;
  const { user } = context;
  const account = await deps.vault.account(user);
  if (!account?.teamId) {
    return context.replyPrivately(
      plainMessage('Your Paperspace account is not a team account: budgets are set per team.'),
    );
  }
  const paperspaceTeamId = account.teamId;
  if (command.subject === null && !command.off) {
    const budgets = await deps.store.budgets.list(user.teamId, paperspaceTeamId);
    const names = await budgetNames(budgets, context, deps);
    return context.replyPrivately(budgetListMessage(budgets, names, deps.now()));
  }
  try {
    await requireWorkspaceAdmin(
      { web: context.web, userId: user.userId, logger: deps.logger },
      'change budgets',
    );
    await requireAdministrator(deps, user, client, 'change budgets');
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    return context.replyPrivately(
      plainMessage(`${error.message}${await whoCan(deps, user, client, paperspaceTeamId)}`),
    );
  }
  const place = { teamId: user.teamId, paperspaceTeamId };
  if (command.off) {
    const subject = command.subject === null ? undefined : subjectOf(command.subject);
    const removed = await deps.audit.run(
      { user, action: 'budget.off', note: command.subject ?? 'every budget' },
      () => deps.store.budgets.remove(place.teamId, place.paperspaceTeamId, subject),
    );
    const what = subject === undefined ? "your team's budgets" : budgetName(subject);
    return context.replyPrivately(
      plainMessage(
        removed === 0 ? `There was no ${what.replace(/^the /, '')} to remove.` : `✅ Removed ${what}.`,
      ),
    );
  }
  const subject = subjectOf(command.subject ?? 'team');
  const amountCents = command.amountCents ?? 0;
  await deps.audit.run(
    { user, action: 'budget.set', note: `${command.subject} ${amountCents} cents a month` },
    () => deps.store.budgets.set({ ...place, subject, amountCents, setBy: user.userId, at: deps.now() }),
  );
  const counted = await countBudgets(
    deps,
    { user, client, paperspaceUserId: account.userId },
    paperspaceTeamId,
  );
  const key = command.subject;
  const set = counted.find((budget) => (budget.subject === 'team' ? 'team' : budget.subject.userId) === key);
  const line = set ? `\n${budgetLine(set, deps.now())}` : '';
  await context.replyPrivately(
    plainMessage(
      `✅ Set ${budgetName(subject)} to ${formatCents(amountCents)} a month.${line}\n${COUNTED_NOT_GATED}`,
    ),
  );
}

/** The team's linked administrators, named to a person refused a change. */
async function whoCan(
  deps: BudgetsDeps,
  user: SlackUser,
  client: PaperspaceClient,
  paperspaceTeamId: string,
): Promise<string> {
  const { approvers, basis } = await createApprovers(deps, { user, client }, paperspaceTeamId);
  const who = approvers
    .filter((person) => person.userId !== user.userId)
    .map((person) => mention(person.userId));
  if (who.length === 0) return '';
  // Where Paperspace does not list administrators: the teammates it has not shown are members.
  const lead =
    basis === 'unknown' ? 'Teammates here who may administer your team' : "Your team's administrators here";
  return ` ${lead}: ${who.join(', ')}.`;
}
