// /ps steps [on|off]: whether Workflow Builder steps in workflows this person starts or clicks in may act
// with their key.

import { z } from 'zod';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { WorkflowStepsDeps } from '../workflow-steps-deps.js';

export const stepsOperation = defineOperation({
  name: 'steps',
  usage: `${SLASH_COMMAND} steps [on|off]`,
  summary:
    'Let Workflow Builder steps in workflows you start or click in act with your Paperspace key (off unless you turn them on), or say whether they may.',
  help: {
    parameters: ['`on` or `off` (nothing: say whether they are on).'],
    examples: [`${SLASH_COMMAND} steps on`],
    effect:
      'Lets Workflow Builder steps in workflows you start or click in start, stop, wait for or request machines with your key.',
  },
  kind: 'change',
  params: z.object({
    enabled: z.boolean().nullable().describe('Turn steps on or off; null to say whether they are on.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('steps', args);
    if (!split.ok) return split;
    const { positionals } = split.args;
    const extra = tooMany('steps', positionals, 1, 'on or off');
    if (extra !== null) return extra;
    const typed = positionals[0]?.text;
    if (typed === undefined) return accept({ enabled: null });
    const word = typed.toLowerCase();
    if (word === 'on' || word === 'off') return accept({ enabled: word === 'on' });
    return fail(`Unknown setting ${echo(typed)}: give on or off.`);
  },
  run: setSteps,
});

const reply = plainMessage;

function describe(enabled: boolean): string {
  return enabled
    ? `Workflow Builder steps (Start, Stop, Restart, Wait for a machine, Request a machine) in workflows you start or click a button in act with your Paperspace key. \`${SLASH_COMMAND} steps off\` stops them.`
    : `Workflow Builder steps in workflows you start or click in fail without touching Paperspace. \`${SLASH_COMMAND} steps on\` lets them act with your key.`;
}

async function setSteps(
  command: { enabled: boolean | null },
  context: CommandContext,
  deps: WorkflowStepsDeps,
): Promise<void> {
  const { user } = context;
  if (command.enabled === null) {
    return context.replyPrivately(reply(describe(await deps.store.workflowSteps.enabled(user))));
  }
  const enabled = command.enabled;
  await deps.audit.run({ user, action: enabled ? 'workflow_steps.on' : 'workflow_steps.off' }, () =>
    deps.store.workflowSteps.setEnabled(user, enabled, deps.now()),
  );
  await context.replyPrivately(reply(`✅ ${describe(enabled)}`));
}
