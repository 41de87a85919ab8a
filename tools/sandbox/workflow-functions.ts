// Workflow Builder's custom steps as Slack runs them, for the fake Slack Web API and the sandbox: a run hands
// the app a `function_executed` event, and the app ends that execution once, with
// functions.completeSuccess or functions.completeError. Written from Slack's reference pages
// (events/function_executed, methods/functions.completeSuccess and completeError): an unknown
// execution is `function_execution_not_found`, one already ended is `execution_not_in_running_state`,
// and outputs that do not conform to the function's output parameters in the manifest (a required one
// missing, one the manifest does not declare, a value not of its declared type) are
// `parameter_validation_failed`. A step's parameters come from manifest.yml, as Slack's come from the
// manifest the app was installed with, so no test can complete a step with outputs Slack would refuse.
// A `slack#/types/user_context` input is Slack's to set (reference/types/user_context-type): Workflow
// Builder shows a builder no field for it, and fills it from the person who started the workflow or
// clicked a button in it, as `{ id, secret }`, the secret being "a hash used internally by Slack to
// validate the authenticity of the id". So a run takes that person (`by`) and never a typed value, and a
// step that needs one with nobody to take it from is a workflow Slack does not publish.
import { createHmac, randomBytes } from 'node:crypto';
import {
  type ManifestParameters,
  type ManifestStep,
  readManifestSteps,
  USER_CONTEXT,
} from './manifest-steps.js';

/** What a workflow step's run looks like to the app: the `event` of a function_executed callback. */
interface FunctionExecutedEvent {
  type: 'function_executed';
  function: {
    id: string;
    callback_id: string;
    title: string;
    type: 'app';
    input_parameters: Array<{ type: string; name: string; title: string; is_required: boolean }>;
    output_parameters: Array<{ type: string; name: string; title: string; is_required: boolean }>;
    app_id: string;
    date_created: number;
    date_updated: number;
    date_deleted: number;
  };
  inputs: Record<string, unknown>;
  function_execution_id: string;
  workflow_execution_id: string;
  event_ts: string;
  bot_access_token: string;
}

interface FunctionExecutionInput {
  /** A step of the manifest; any other id runs a step with no parameters (one the manifest lost). */
  callbackId: string;
  /** What the workflow's builder filled in (or mapped from earlier steps); never a user_context input. */
  inputs: Record<string, unknown>;
  /**
   * Who started the workflow (a link, a shortcut) or clicked the button of a message step before this
   * one: Slack sets every user_context input from them. None for a run nobody started by hand (a
   * schedule) with no such button.
   */
  by?: string;
  /**
   * The step as the manifest the app was installed with declares it, when that is not manifest.yml's:
   * a workspace that installed an earlier version, whose workflows still send what it declared.
   */
  installedAs?: ManifestStep;
}

/** Where an execution stands, as Workflow Builder would show it. */
type FunctionExecutionState =
  | { state: 'running' }
  | { state: 'completed'; outputs: Record<string, unknown> }
  | { state: 'failed'; error: string };

type Answer = Record<string, unknown> & { ok: boolean };
type Call = { args: Record<string, unknown> };

export interface FakeFunctions {
  /** Starts a run of a step and answers the event Slack would send the app for it. */
  execute(input: FunctionExecutionInput): FunctionExecutedEvent;
  /** Where a run stands; undefined for an id that was never handed out. */
  execution(executionId: string): FunctionExecutionState | undefined;
  /** True for the workflow token of a run (bot_access_token), which Slack accepts for its calls. */
  isWorkflowToken(token: string): boolean;
  handlers: Record<string, (call: Call) => Answer>;
}

/**
 * Whether a value is of a parameter type, as Slack's types reference describes each
 * (docs.slack.dev/tools/deno-slack-sdk/reference/slack-types): ids by their documented prefixes, a
 * timestamp as Unix seconds, a date as YYYY-MM-DD.
 */
const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  array: (value) => Array.isArray(value),
  'slack#/types/user_id': (value) => typeof value === 'string' && /^[UW][A-Z0-9]+$/.test(value),
  'slack#/types/channel_id': (value) => typeof value === 'string' && /^[CDG][A-Z0-9]+$/.test(value),
  'slack#/types/usergroup_id': (value) => typeof value === 'string' && /^S[A-Z0-9]+$/.test(value),
  'slack#/types/timestamp': (value) => Number.isInteger(value),
  'slack#/types/date': (value) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value),
};

/** Why Slack refuses these outputs for these declared parameters: one `{ pointer, message }` a problem. */
function outputProblems(declared: ManifestParameters, outputs: Record<string, unknown>) {
  const problems: Array<{ pointer: string; message: string }> = [];
  for (const [name, parameter] of Object.entries(declared)) {
    if (parameter.is_required && !(name in outputs)) {
      problems.push({ pointer: `/outputs/${name}`, message: 'missing required property' });
    }
  }
  for (const [name, value] of Object.entries(outputs)) {
    const parameter = declared[name];
    if (parameter === undefined) {
      problems.push({ pointer: `/outputs/${name}`, message: 'unknown property' });
    } else if (!TYPE_CHECKS[parameter.type]?.(value)) {
      problems.push({ pointer: `/outputs/${name}`, message: `must be of type ${parameter.type}` });
    }
  }
  return problems;
}

/** Refuses at once a manifest type the fake has no rule for, rather than letting any value through. */
function checkTypesKnown(steps: Record<string, ManifestStep>): void {
  for (const [callbackId, step] of Object.entries(steps)) {
    for (const [name, parameter] of Object.entries(step.output_parameters)) {
      if (TYPE_CHECKS[parameter.type] === undefined) {
        throw new Error(
          `fake Slack: ${callbackId} output ${name} has type ${parameter.type}, which it cannot check yet`,
        );
      }
    }
  }
}

/**
 * The inputs Slack sends: the builder's, and each user_context input set from `by`. Throws for what
 * Workflow Builder never lets through: a typed user context, or a required one nobody can provide.
 */
function inputsAsSlackSets(
  callbackId: string,
  declared: ManifestParameters,
  { inputs, by }: FunctionExecutionInput,
  userContext: (userId: string) => { id: string; secret: string },
): Record<string, unknown> {
  const sent = { ...inputs };
  for (const [name, parameter] of Object.entries(declared)) {
    if (parameter.type !== USER_CONTEXT) continue;
    if (name in inputs) {
      throw new Error(
        `fake Slack: ${callbackId}'s input ${name} is a user_context, which a workflow's builder cannot fill in: Slack sets it from the person who started the workflow or clicked in it (pass \`by\`)`,
      );
    }
    if (by !== undefined) sent[name] = userContext(by);
    else if (parameter.is_required) {
      throw new Error(
        `fake Slack: ${callbackId} needs a user_context for ${name}, and nobody started this run or clicked in it: Workflow Builder does not publish such a workflow`,
      );
    }
  }
  return sent;
}

export function createFakeFunctions(
  appId: string,
  steps: Record<string, ManifestStep> = readManifestSteps(),
): FakeFunctions {
  checkTypesKnown(steps);
  // Slack's own key for a user context's secret: the app never learns it, so it cannot make one up.
  const contextKey = randomBytes(32);
  const userContext = (userId: string) => ({
    id: userId,
    secret: createHmac('sha256', contextKey).update(userId).digest('hex'),
  });
  const executions = new Map<
    string,
    { state: FunctionExecutionState; outputs: ManifestParameters; token: string }
  >();
  let count = 0;

  const finish = (
    call: Call,
    ended: (args: Record<string, unknown>) => FunctionExecutionState | Answer,
  ): Answer => {
    const id = call.args.function_execution_id;
    if (typeof id !== 'string' || id === '') return { ok: false, error: 'invalid_arguments' };
    const execution = executions.get(id);
    if (execution === undefined) return { ok: false, error: 'function_execution_not_found' };
    if (execution.state.state !== 'running') return { ok: false, error: 'execution_not_in_running_state' };
    const result = ended(call.args);
    if ('ok' in result) return result;
    execution.state = result;
    return { ok: true };
  };

  return {
    execute(input) {
      const { callbackId } = input;
      const step = input.installedAs ?? steps[callbackId];
      const inputs = inputsAsSlackSets(callbackId, step?.input_parameters ?? {}, input, userContext);
      count += 1;
      const suffix = String(count).padStart(8, '0');
      const executionId = `Fx${suffix}`;
      const token = `xwfp-fake-${suffix}`;
      const outputs = step?.output_parameters ?? {};
      executions.set(executionId, { state: { state: 'running' }, outputs, token });
      const described = (parameters: ManifestParameters) =>
        Object.entries(parameters).map(([name, { type, is_required }]) => ({
          type,
          name,
          title: name,
          is_required: is_required === true,
        }));
      return {
        type: 'function_executed',
        function: {
          id: `Fn${suffix}`,
          callback_id: callbackId,
          title: step?.title ?? callbackId,
          type: 'app',
          input_parameters: described(step?.input_parameters ?? {}),
          output_parameters: described(outputs),
          app_id: appId,
          date_created: 1_700_000_000,
          date_updated: 1_700_000_000,
          date_deleted: 0,
        },
        inputs,
        function_execution_id: executionId,
        workflow_execution_id: `Wx${suffix}`,
        event_ts: `1700000000.${suffix}`,
        bot_access_token: token,
      };
    },
    execution: (executionId) => executions.get(executionId)?.state,
    isWorkflowToken: (token) => [...executions.values()].some((execution) => execution.token === token),
    handlers: {
      'functions.completeSuccess': (call) =>
        finish(call, (args) => {
          const outputs = typeof args.outputs === 'string' ? parseJson(args.outputs) : args.outputs;
          if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs))
            return { ok: false, error: 'invalid_arguments' };
          const declared = executions.get(String(args.function_execution_id))?.outputs ?? {};
          const errors = outputProblems(declared, outputs as Record<string, unknown>);
          if (errors.length > 0) return { ok: false, error: 'parameter_validation_failed', errors };
          return { state: 'completed', outputs: outputs as Record<string, unknown> };
        }),
      'functions.completeError': (call) =>
        finish(call, (args) =>
          typeof args.error === 'string' && args.error !== ''
            ? { state: 'failed', error: args.error }
            : { ok: false, error: 'invalid_arguments' },
        ),
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
