// Machine states over time. Nothing runs in the background: an operation records its timed phases,
// and settleMachine replays them up to the clock's current time whenever a machine is read. A test
// that advances a fake clock therefore sees exactly the state the contract's table prescribes.
import { randomUUID } from 'node:crypto';
import type { MachineState } from '../../src/paperspace/constants.js';
import type { AgentType, EventName, EventRecord, MachineRecord, OperationRecord, Phase } from './records.js';
import type { EmulatorCore } from './world.js';

/**
 * Where a boot ends. Headless Linux machines have no streaming agent, so they stop at
 * `serviceready`; desktops (Linux and Windows) go on to `ready`, where the agent accepts logins.
 */
export function bootedStateOf(agentType: AgentType): MachineState {
  return agentType === 'LinuxHeadless' ? 'serviceready' : 'ready';
}

/** States in which the machine runs and is billed by the hour. */
function isBilledState(state: MachineState): boolean {
  return state !== 'off' && state !== 'provisioning';
}

const CANCELLED_MESSAGE = 'Cancelled because an earlier operation on this machine failed';

function enterState(machine: MachineRecord, state: MachineState, at: number): void {
  if (machine.state === state) return;
  machine.state = state;
  machine.stateLog.push({ state, at });
  if (state === 'off' && machine.dynamicPublicIp) machine.publicIpAddress = null;
}

function activate(machine: MachineRecord, operation: OperationRecord, at: number): void {
  operation.phaseIndex = 0;
  operation.phaseStartedAt = at;
  operation.event.state = 'in progress';
  operation.event.dtModified = at;
  operation.event.dtStarted = at;
  const first = operation.phases[0];
  if (first) enterState(machine, first.state, at);
}

function complete(machine: MachineRecord, operation: OperationRecord, at: number): void {
  const { event } = operation;
  event.dtModified = at;
  event.dtFinished = at;
  if (operation.failure !== null) {
    event.state = 'error';
    event.errorMsg = operation.failure;
    enterState(machine, 'off', at);
    for (const cancelled of machine.queue) {
      cancelled.event.state = 'error';
      cancelled.event.errorMsg = CANCELLED_MESSAGE;
      cancelled.event.cancelled = true;
      cancelled.event.dtModified = at;
      cancelled.event.dtFinished = at;
    }
    machine.queue = [];
    return;
  }
  event.state = 'done';
  enterState(machine, operation.finalState, at);
  operation.onComplete?.(machine, at);
}

/** Replays every phase that ended at or before `now`, with the exact time each one ended. */
export function settleMachine(machine: MachineRecord, now: number): void {
  for (;;) {
    const operation = machine.queue[0];
    if (!operation) return;
    const phase = operation.phases[operation.phaseIndex];
    const end = operation.phaseStartedAt + (phase?.durationMs ?? 0);
    if (now < end) return;
    operation.phaseIndex += 1;
    const next = operation.phases[operation.phaseIndex];
    if (next) {
      operation.phaseStartedAt = end;
      enterState(machine, next.state, end);
      continue;
    }
    machine.queue.shift();
    complete(machine, operation, end);
    const following = machine.queue[0];
    if (following) activate(machine, following, end);
  }
}

/** The state the machine will rest in once everything requested so far has finished. */
function eventualState(machine: MachineRecord): MachineState {
  const last = machine.queue.at(-1);
  if (!last) return machine.state;
  return last.failure === null ? last.finalState : 'off';
}

export function newEvent(name: EventName, state: EventRecord['state'], at: number): EventRecord {
  const finished = state === 'done' || state === 'error';
  return {
    name,
    state,
    errorMsg: '',
    handle: randomUUID(),
    dtCreated: at,
    dtModified: at,
    dtStarted: finished ? at : null,
    dtFinished: finished ? at : null,
    cancelled: false,
  };
}

interface OperationPlan {
  readonly name: EventName;
  readonly phases: readonly Phase[];
  readonly finalState: MachineState;
  readonly onComplete?: (machine: MachineRecord, at: number) => void;
}

/** Records the operation's event and runs it now, or after the operations already under way. */
function enqueue(core: EmulatorCore, machine: MachineRecord, plan: OperationPlan): OperationRecord {
  const now = core.now();
  settleMachine(machine, now);
  const event = newEvent(plan.name, 'new', now);
  const operation: OperationRecord = {
    event,
    phases: plan.phases,
    finalState: plan.finalState,
    failure: machine.pendingFailure,
    phaseIndex: 0,
    phaseStartedAt: now,
    ...(plan.onComplete ? { onComplete: plan.onComplete } : {}),
  };
  machine.pendingFailure = null;
  machine.events.unshift(event);
  machine.queue.push(operation);
  if (machine.queue.length === 1) activate(machine, operation, now);
  return operation;
}

/** After a boot: a dynamic public IP is attached and the startup script runs. */
function afterBoot(core: EmulatorCore) {
  return (machine: MachineRecord, at: number) => {
    if (machine.dynamicPublicIp && machine.publicIpAddress === null) {
      machine.publicIpAddress = core.ids.nextPublicIp();
    }
    const script = machine.scriptId === null ? undefined : core.world.scripts.get(machine.scriptId);
    if (script?.isEnabled && !(script.runOnce && machine.dtLastRun !== null)) machine.dtLastRun = at;
  };
}

export function requestCreate(
  core: EmulatorCore,
  machine: MachineRecord,
  startOnCreate: boolean,
  provisioned: (machine: MachineRecord, at: number) => void,
): void {
  enqueue(core, machine, {
    name: 'create',
    phases: [{ state: 'provisioning', durationMs: core.transitionMs }],
    finalState: 'off',
    onComplete: provisioned,
  });
  if (startOnCreate) requestStart(core, machine);
}

/** Answers false when the start is a no-op: the machine is, or is about to be, started. */
export function requestStart(core: EmulatorCore, machine: MachineRecord): boolean {
  settleMachine(machine, core.now());
  if (eventualState(machine) !== 'off') return false;
  enqueue(core, machine, {
    name: 'start',
    phases: [{ state: 'starting', durationMs: core.transitionMs }],
    finalState: bootedStateOf(machine.agentType),
    onComplete: afterBoot(core),
  });
  return true;
}

/** Answers false when the stop is a no-op: the machine is, or is about to be, off. */
export function requestStop(core: EmulatorCore, machine: MachineRecord): boolean {
  settleMachine(machine, core.now());
  if (eventualState(machine) === 'off') return false;
  enqueue(core, machine, {
    name: 'stop',
    phases: [{ state: 'stopping', durationMs: core.transitionMs }],
    finalState: 'off',
  });
  return true;
}

/** A restart is never a no-op: asked while restarting, it requests another restart after this one. */
export function requestRestart(core: EmulatorCore, machine: MachineRecord): void {
  enqueue(core, machine, {
    name: 'restart',
    phases: [
      { state: 'restarting', durationMs: core.transitionMs },
      { state: 'starting', durationMs: core.transitionMs },
    ],
    finalState: bootedStateOf(machine.agentType),
    onComplete: afterBoot(core),
  });
}

/** Only seeds start machines in `upgrading`: the contract does not say what initiates it. */
export function requestUpgrade(core: EmulatorCore, machine: MachineRecord): void {
  enqueue(core, machine, {
    name: 'upgrade',
    phases: [{ state: 'upgrading', durationMs: core.transitionMs }],
    finalState: bootedStateOf(machine.agentType),
  });
}

/** Shuts the machine down at once (billing stops now) and drops what was still queued. */
export function shutDownForDestroy(machine: MachineRecord, now: number): void {
  settleMachine(machine, now);
  machine.queue = [];
  enterState(machine, 'off', now);
}

/** Milliseconds of [from, to) during which the machine was in a billed state. */
export function billedMs(machine: MachineRecord, from: number, to: number): number {
  let total = 0;
  machine.stateLog.forEach((change, index) => {
    if (!isBilledState(change.state)) return;
    const end = machine.stateLog[index + 1]?.at ?? to;
    const overlap = Math.min(end, to) - Math.max(change.at, from);
    if (overlap > 0) total += overlap;
  });
  return total;
}
