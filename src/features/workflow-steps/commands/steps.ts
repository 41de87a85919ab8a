// /ps steps [on|off]: whether Workflow Builder steps that name this person may act with their key.
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext, CommandOf } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';

const reply = (text: string) => ({ blocks: [{ type: 'section' as const, text: mrkdwn(text) }], text });

function describe(enabled: boolean): string {
  return enabled
    ? `Workflow Builder steps that name you (Start, Stop, Restart, Wait for a machine, Request a machine) act with your Paperspace key. \`${SLASH_COMMAND} steps off\` stops them.`
    : `Workflow Builder steps that name you fail without touching Paperspace. \`${SLASH_COMMAND} steps on\` lets them act with your key.`;
}

export async function stepsCommand(command: CommandOf<'steps'>, context: CommandContext): Promise<void> {
  const { deps, user } = context;
  if (command.enabled === null) {
    return context.replyPrivately(reply(describe(await deps.store.workflowSteps.enabled(user))));
  }
  const enabled = command.enabled;
  await deps.audit.run({ user, action: enabled ? 'workflow_steps.on' : 'workflow_steps.off' }, () =>
    deps.store.workflowSteps.setEnabled(user, enabled, deps.now()),
  );
  await context.replyPrivately(reply(`✅ ${describe(enabled)}`));
}
