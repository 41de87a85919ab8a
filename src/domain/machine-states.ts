// The machine state vocabulary every feature speaks: which states are running (billed), which are
// booted, which a machine rests in, and when a wait is over. The contract names the states
// (paperspace/constants.ts); what they mean to a person is decided here, once.
import { BILLED_STATES, type MachineState, type WaitableState } from '../paperspace/constants.js';
import type { Machine } from '../paperspace/schemas.js';

/** Where a boot ends: `serviceready` without the remote-access agent, `ready` with it. */
const BOOTED_STATES: readonly string[] = ['serviceready', 'ready'] satisfies MachineState[];
/** States a machine rests in; any other is a change under way. */
const SETTLED_STATES: readonly string[] = ['off', ...BOOTED_STATES];
const BILLED: readonly string[] = BILLED_STATES;

/** Running, as billed: from the start request until the machine is off again (Paperspace's meter). */
export function isRunning(state: string): boolean {
  return BILLED.includes(state);
}

/**
 * Running and taking a stop: booting or booted. What a card offers Stop and Restart for, and what the
 * reminders, the digest and the cost alerts ask a person about. A machine stopping, restarting or
 * upgrading is billed too, but is already changing: Paperspace refuses a stop then, and it is asked
 * about again once it settles.
 */
export function isStoppable(state: string): boolean {
  return state === 'starting' || isBooted(state);
}

/** Booted: up, whether or not its remote-access agent is (ready is serviceready plus the agent). */
export function isBooted(state: string): boolean {
  return BOOTED_STATES.includes(state);
}

/** Resting: off or booted. Settling anywhere but where it was sent is when an operation may have failed. */
export function isSettled(state: string): boolean {
  return SETTLED_STATES.includes(state);
}

/**
 * The state a boot ends in. The contract does not say what selects ready or serviceready; a machine
 * without the remote-access agent (LinuxHeadless) never gets past serviceready, while desktops
 * (LinuxDesktop, WindowsDesktop and agent types we do not know) reach ready. Waiting for ready on a
 * headless machine would time out; waiting for serviceready on a desktop would announce it before
 * anyone can log in.
 */
export function bootedStateOf(machine: Pick<Machine, 'agentType'>): WaitableState {
  return machine.agentType === 'LinuxHeadless' ? 'serviceready' : 'ready';
}

/**
 * Whether a machine in `state` has reached `target`. `ready` is `serviceready` plus a running agent
 * (contract, States), so a wait for serviceready is over once the machine is ready too: a desktop
 * passes through serviceready faster than one tick.
 */
export function targetReached(state: string, target: string): boolean {
  return state === target || (target === 'serviceready' && state === 'ready');
}
