// What every step run shares: the person it names, the audit record carrying the workflow's execution
// id, and the one way it ends (completeSuccess with outputs, or completeError with one sentence).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { failureText } from '../../errors/user-message.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import type { SlackUser } from '../../store/slack-user.js';
import { namedPerson } from './step-actor.js';

export type StepArgs = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;
/** What a step completes with; every step here ends on a machine, whose id the audit record keeps. */
export type StepOutputs = { machine_id: string } & Record<string, string>;

export interface StepRun {
  /** The person the step's `user` input names (not the one who built or triggered the workflow). */
  user: SlackUser;
  inputs: Record<string, unknown>;
  /** Where the step runs, for the audit record and the log: `workflow Wx…, step Fx…`. */
  where: string;
}

/**
 * Runs one step: `perform` answers the outputs, or throws a UserFacingError (a sentence for the workflow's
 * runner) or any other error (logged, reported with a reference). Every run writes one audit record with
 * `action`, the machine it names and the workflow's execution id, whatever its outcome.
 */
export function stepListener(
  deps: ListenerDeps,
  action: string,
  perform: (run: StepRun) => Promise<StepOutputs>,
): (args: StepArgs) => Promise<void> {
  return async ({ event, body, complete, fail }) => {
    const where = `workflow ${event.workflow_execution_id}, step ${event.function_execution_id}`;
    const teamId = body.team_id;
    let outputs: StepOutputs;
    try {
      // A step whose "Act as" input names nobody ran for no one, so it has no audit record: it fails
      // with the sentence saying which input to fill in.
      const user = namedPerson(teamId, event.inputs.user);
      const machine = typeof event.inputs.machine === 'string' ? event.inputs.machine : undefined;
      outputs = await deps.audit.run(
        { user, action, note: where, ...(machine === undefined ? {} : { resourceId: machine }) },
        () => perform({ user, inputs: event.inputs, where }),
        // The machine as typed is only a name until Paperspace says which one it is.
        (done) => done.machine_id,
      );
    } catch (error) {
      await fail({ error: failureText(error, deps.logger) });
      return;
    }
    await complete({ outputs });
  };
}

/** A text input of the step, trimmed; a refusal naming the input when it is empty. */
export function textInput(inputs: Record<string, unknown>, name: string, title: string): string {
  const value = inputs[name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new UserFacingError(`This step needs the "${title}" input.`);
}
