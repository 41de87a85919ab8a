// Workflow Builder's custom steps as Slack runs them, for the fake Slack Web API and the sandbox: a run hands
// the app a `function_executed` event, and the app ends that execution once, with
// functions.completeSuccess or functions.completeError. Written from Slack's reference pages
// (events/function_executed, methods/functions.completeSuccess and completeError): an unknown
// execution is `function_execution_not_found`, one already ended is `execution_not_in_running_state`,
// outputs missing a required output parameter are `parameter_validation_failed`.

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
  callbackId: string;
  inputs: Record<string, unknown>;
  /** The step's output parameters (all required), as its manifest declares them. */
  outputs: readonly string[];
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

export function createFakeFunctions(appId: string): FakeFunctions {
  const executions = new Map<
    string,
    { state: FunctionExecutionState; outputs: readonly string[]; token: string }
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
    execute({ callbackId, inputs, outputs }) {
      count += 1;
      const suffix = String(count).padStart(8, '0');
      const executionId = `Fx${suffix}`;
      const token = `xwfp-fake-${suffix}`;
      executions.set(executionId, { state: { state: 'running' }, outputs, token });
      const parameter = (name: string, type: string) => ({ type, name, title: name, is_required: true });
      return {
        type: 'function_executed',
        function: {
          id: `Fn${suffix}`,
          callback_id: callbackId,
          title: callbackId,
          type: 'app',
          input_parameters: Object.keys(inputs).map((name) => parameter(name, 'string')),
          output_parameters: outputs.map((name) => parameter(name, 'string')),
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
          const id = String(args.function_execution_id);
          const missing = executions.get(id)?.outputs.filter((name) => !(name in outputs)) ?? [];
          if (missing.length > 0) {
            return {
              ok: false,
              error: 'parameter_validation_failed',
              errors: missing.map((name) => ({
                pointer: `/outputs/${name}`,
                message: 'missing required property',
              })),
            };
          }
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
