// Workflow Builder, as far as the sandbox plays it: typing `/workflow <step> key=value …` in the page
// runs one of the app's steps (manifest.yml `functions`) the way a published workflow would, a signed
// `function_executed` event carrying the inputs and a workflow token. The run stays open until the app
// ends it with functions.completeSuccess or completeError, through the same rules and errors as the
// fake Slack's (workflow-functions.ts); Slackbot tells the person who ran it how it ended, in the
// conversation they typed it in, as Slack's Slackbot tells a workflow's builder of a failed step.
import type { Logger } from 'pino';
import { eventCallback } from './event-envelope.js';
import type { Outcome } from './interactions.js';
import { type ManifestStep, readManifestSteps, USER_CONTEXT } from './manifest-steps.js';
import { ackFailure, createSignedSender } from './signed-sender.js';
import type { FakeFunctions } from './workflow-functions.js';
import type { Workspace } from './workspace.js';

/** What the page types to run a step; Slack itself has no such command. */
export const WORKFLOW_COMMAND = '/workflow';

export interface WorkflowRuns {
  /** Runs the step typed in `text` for `userId`, who is told in `channel` how it ends. */
  run(input: { userId: string; channel: string; text: string }): Promise<Outcome>;
  /** The app ended a run (Slack took its completion): tells the person who ran it. */
  ended(executionId: string): void;
}

export interface WorkflowRunsOptions {
  functions: FakeFunctions;
  workspace: Workspace;
  signingSecret: string;
  requestUrl: () => string;
  logger: Logger;
  now: () => number;
  ackTimeoutMs?: number;
}

/** `key=value` and `key="a value"` pairs, in order. */
function typedPairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const match of text.matchAll(/([a-z_]+)=(?:"([^"]*)"|(\S+))/g)) {
    pairs.set(match[1] ?? '', match[2] ?? match[3] ?? '');
  }
  return pairs;
}

export function createWorkflowRuns(options: WorkflowRunsOptions): WorkflowRuns {
  const { functions, workspace } = options;
  const steps = readManifestSteps();
  /** Who ran each execution, and which step it is, for the notice at its end. */
  const runs = new Map<string, { userId: string; channel: string; title: string }>();
  const { send } = createSignedSender({
    signingSecret: options.signingSecret,
    requestUrl: options.requestUrl,
    logger: options.logger,
    now: options.now,
    ...(options.ackTimeoutMs === undefined ? {} : { ackTimeoutMs: options.ackTimeoutMs }),
  });

  /**
   * The inputs as the workflow's builder fills them in, integers as numbers. A user_context input has no
   * field (Slack sets it from whoever runs the workflow, here the person typing).
   */
  const inputsOf = (step: ManifestStep, typed: Map<string, string>): Record<string, unknown> | string => {
    const inputs: Record<string, unknown> = {};
    for (const [name, parameter] of Object.entries(step.input_parameters)) {
      const value = typed.get(name);
      if (parameter.type === USER_CONTEXT) {
        if (value !== undefined) return `${name}= is set by Slack from whoever runs the workflow`;
        continue;
      }
      if (value === undefined) {
        if (parameter.is_required) return `${name}= is required by this step`;
        continue;
      }
      inputs[name] = parameter.type === 'integer' ? Number(value) : value;
    }
    const unknown = [...typed.keys()].filter((name) => !(name in step.input_parameters));
    if (unknown.length > 0) return `this step has no input ${unknown.join(', ')}`;
    return inputs;
  };

  const tell = (run: { userId: string; channel: string }, text: string) =>
    workspace.postEphemeral(run.channel, run.userId, { kind: 'slackbot' }, { text, blocks: [] });

  return {
    async run({ userId, channel, text }) {
      if (!workspace.isMember(channel, userId))
        return { ok: false, error: 'you are not in this conversation' };
      const [, callbackId = '', ...rest] = text.trim().split(/\s+/);
      const step = steps[callbackId];
      if (step === undefined) {
        return {
          ok: false,
          error: `use ${WORKFLOW_COMMAND} <step> key=value …, a step among ${Object.keys(steps).join(', ')}`,
        };
      }
      const inputs = inputsOf(step, typedPairs(rest.join(' ')));
      if (typeof inputs === 'string') return { ok: false, error: inputs };
      // Typed on the page, as a link trigger starts a workflow: the person typing is the one who ran it.
      const event = functions.execute({ callbackId, inputs, by: userId });
      const run = { userId, channel, title: step.title };
      runs.set(event.function_execution_id, run);
      const body = eventCallback(
        { ...event, function: { ...event.function, title: step.title } },
        options.now(),
      );
      const failure = ackFailure(await send('application/json', JSON.stringify(body)));
      if (failure !== undefined) return { ok: false, error: failure };
      tell(run, `Workflow step “${step.title}” is running (${event.function_execution_id}).`);
      return { ok: true };
    },

    ended(executionId) {
      const run = runs.get(executionId);
      const execution = functions.execution(executionId);
      if (run === undefined || execution === undefined) return;
      if (execution.state === 'completed') {
        const outputs = Object.entries(execution.outputs)
          .map(([name, value]) => `${name}: ${String(value)}`)
          .join(', ');
        tell(run, `Workflow step “${run.title}” completed. ${outputs}`);
      } else if (execution.state === 'failed') {
        tell(run, `Workflow step “${run.title}” failed: ${execution.error}`);
      }
    },
  };
}
