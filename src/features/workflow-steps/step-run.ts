// What every step run shares: the person it acts for (step-actor.ts), one run per function_execution_id
// however often Slack delivers it, the audit record carrying the workflow's execution id, and the one
// way it ends (completeSuccess with outputs, or completeError with one sentence).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { failureText } from '../../errors/user-message.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import { actingPerson } from './step-actor.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

export type StepArgs = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;
export type StepOutputs = Record<string, string>;

/** How a run went: the audit record keeps what it acted on (a machine, or the request it opened). */
export interface StepResult {
  resourceId: string;
  /** What the step completes with now; absent when something else ends it later (a Wait step's watch). */
  outputs?: StepOutputs;
}

export interface StepRun {
  /** The person who started the workflow or clicked in it, from the user context Slack set. */
  user: SlackUser;
  inputs: Record<string, unknown>;
  /** Where the step runs, for the audit record and the log: `workflow Wx…, step Fx…`. */
  where: string;
  /** The run's function_execution_id, for whatever completes it later. */
  executionId: string;
  /** Slack's client for this run (its workflow token), for what the step posts. */
  web: WebClient;
}

/**
 * Runs one step: `perform` answers how it went, or throws a UserFacingError (a sentence for the workflow's
 * runner) or any other error (logged, reported with a reference). Every run writes one audit record with
 * `action`, the machine it names and the workflow's execution id, whatever its outcome. A run Slack
 * delivers again (it thought the first delivery went unanswered) is claimed already, by this replica or
 * another, and does nothing: no second start, no second request, no second completion.
 */
export function stepListener(
  deps: WorkflowStepsDeps,
  action: string,
  perform: (run: StepRun) => Promise<StepResult>,
): (args: StepArgs) => Promise<void> {
  return async ({ event, body, context, client, complete, fail }) => {
    const where = `workflow ${event.workflow_execution_id}, step ${event.function_execution_id}`;
    const executionId = event.function_execution_id;
    const workspace = { enterpriseId: body.enterprise_id, teamId: body.team_id };
    const claim = { teamId: workspace.teamId, executionId, at: deps.now() };
    if (!(await deps.store.workflowStepRuns.claim(claim))) {
      deps.logger.info({ execution: executionId, retry: context.retryNum }, 'a step run delivered again');
      return;
    }
    let result: StepResult;
    try {
      // A step that acts for nobody ran for no one, so it has no audit record: it fails with the
      // sentence saying how to fix the workflow.
      const user = actingPerson(workspace, {
        declared: event.function.input_parameters,
        inputs: event.inputs,
      });
      const machine = typeof event.inputs.machine === 'string' ? event.inputs.machine : undefined;
      result = await deps.audit.run(
        { user, action, note: where, ...(machine === undefined ? {} : { resourceId: machine }) },
        () => perform({ user, inputs: event.inputs, where, executionId, web: client }),
        // The machine as typed is only a name until Paperspace says which one it is.
        (done) => done.resourceId,
      );
    } catch (error) {
      // Slack shows a step's error as mrkdwn: what a workflow's builder typed (a machine called
      // `<!channel>`) must read as text, never notify anyone.
      await fail({ error: escapeMrkdwn(failureText(error, deps.logger)) });
      return;
    }
    if (result.outputs !== undefined) await complete({ outputs: result.outputs });
  };
}

/** A text input of the step, trimmed; a refusal naming the input when it is empty. */
export function textInput(inputs: Record<string, unknown>, name: string, title: string): string {
  const value = inputs[name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new UserFacingError(`This step needs the "${title}" input.`);
}
