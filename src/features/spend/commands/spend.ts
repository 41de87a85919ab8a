// /ps spend [YYYY-MM] [page=N]: what the month has cost so far (or a past month), for an administrator
// the whole team's by person, for anyone else their own machines. Read with the asker's own key.
import { z } from 'zod';
import {
  accept,
  fail,
  readOptionalMonth,
  splitArguments,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { BILLING_MONTH_PATTERN } from '../../../slack/command-language/command-values.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { SpendDeps } from '../spend-deps.js';
import { spendReply } from '../spend-reply.js';

/** The most pages /ps spend can have: a team of thousands, a few dozen people a page. */
const MAX_SPEND_PAGE = 10_000;

export const spendOperation = defineOperation({
  name: 'spend',
  usage: `${ps} spend [YYYY-MM] [page=N]`,
  summary:
    "Show this month's cost so far (or a past month's) per machine: yours, or for a team administrator the whole team's by person.",
  help: {
    parameters: [
      '`YYYY-MM`: a past billing month (default: this one).',
      '`page=N`: the page of people, for a team too large for one message (Next and Previous page too).',
    ],
    examples: [`${ps} spend`, `${ps} spend 2024-04`, `${ps} spend page=2`],
    effect:
      "Answers only you with the month's cost per machine; a team administrator sees the whole team's, by person.",
  },
  kind: 'read',
  tool: {
    name: 'spend',
    title: 'Spend this month',
    description:
      "Shows what the month has cost so far (or a past month), per machine: the person's own machines, or for a Paperspace team administrator the whole team's, by person.",
    idempotent: true,
  },
  params: z.object({
    month: z
      .string()
      .regex(BILLING_MONTH_PATTERN)
      .nullable()
      .default(null)
      .describe('The billing month as YYYY-MM, or null for the current month.'),
    page: z.number().int().min(1).max(MAX_SPEND_PAGE).default(1).describe('The page of people, from 1.'),
  }),
  read(args) {
    const split = splitArguments('spend', args);
    if (!split.ok) return split;
    let page = 1;
    for (const token of split.args.keyValues) {
      const key = token.text.slice(0, token.equalsAt);
      const value = token.text.slice(token.equalsAt + 1);
      if (key.toLowerCase() !== 'page') {
        return fail(`Unexpected ${echo(token.text)}: spend takes only page=N (the page of people).`);
      }
      if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_SPEND_PAGE) {
        return fail(`Invalid page ${echo(value)}: give a page number such as page=2.`);
      }
      page = Number(value);
    }
    const [monthToken] = split.args.positionals;
    const month = readOptionalMonth(monthToken);
    if (!month.ok) return month;
    const extra = tooMany('spend', split.args.positionals, 1, 'an optional YYYY-MM and page=N');
    return extra ?? accept({ month: month.value, page });
  },
  async run(command, context, deps: SpendDeps) {
    const reply = await spendReply(context, deps, command.month, command.page);
    if (reply !== undefined) await context.replyPrivately(reply);
  },
});
