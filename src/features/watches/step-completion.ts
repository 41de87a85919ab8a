// The end of a watch a Workflow Builder Wait step started: instead of a reply in a thread, the step
// itself is completed (its outputs: the state reached and the public IP) or failed with one sentence.
// It goes through the same stored report as any completion, so after a restart, or on another replica,
// it is still sent; Slack refuses a second completion of one run, which here means it was sent already.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { slackErrorCode } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { Watch } from '../../store/watch-types.js';
import type { WatchOutcome } from './watch-messages.js';

/** What Slack answers for a run that has already ended (completed, failed, or timed out on its side). */
const ALREADY_ENDED = new Set(['execution_not_in_running_state', 'function_execution_not_found']);

/** True when Slack refused a completion because the run had already ended: it was sent already. */
export function runAlreadyEnded(error: unknown): boolean {
  const code = slackErrorCode(error);
  return code !== undefined && ALREADY_ENDED.has(code);
}

/** The sentence a failed Wait step shows in Workflow Builder's run history and Slackbot message. */
/** The step's error, as mrkdwn: the machine's name and Paperspace's words are escaped. */
function stepFailure(watch: Watch, outcome: Exclude<WatchOutcome, { status: 'done' }>): string {
  const name = escapeMrkdwn(watch.machineName);
  switch (outcome.status) {
    case 'failed':
      return `${name} did not reach ${watch.targetState}: its ${outcome.operation} failed (${escapeMrkdwn(outcome.message)}).`;
    case 'timed_out':
      return `${name} did not reach ${watch.targetState} before the step's timeout${outcome.lastState === null ? '' : ` (it was ${outcome.lastState})`}.`;
    case 'gone':
      return `${name} no longer exists, or the key of <@${watch.userId}> can no longer see it.`;
    case 'stopped':
      return `${name} is no longer followed: ${escapeMrkdwn(outcome.reason)}`;
    case 'not_sent':
      return `${name} did not reach ${watch.targetState}: its ${outcome.operation} did not reach Paperspace.`;
  }
}

/** Completes or fails the step run of `watch` (functionExecutionId set); throws when Slack did not take it. */
export async function completeStep(
  deps: { slack: WebClient; logger: Logger },
  watch: Watch & { functionExecutionId: string },
  outcome: WatchOutcome,
  machine: Machine | undefined,
): Promise<void> {
  const execution = watch.functionExecutionId;
  try {
    if (outcome.status === 'done') {
      await deps.slack.functions.completeSuccess({
        function_execution_id: execution,
        outputs: { state: outcome.state, public_ip: machine?.publicIpAddress ?? '' },
      });
    } else {
      await deps.slack.functions.completeError({
        function_execution_id: execution,
        error: stepFailure(watch, outcome),
      });
    }
  } catch (error) {
    if (!runAlreadyEnded(error)) throw error;
    deps.logger.info(
      { watchId: watch.id, execution, slackError: slackErrorCode(error) },
      'the step of a watch had already ended',
    );
  }
}
