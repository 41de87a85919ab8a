// How waitForState ends when the machine does not get where it was asked to: out of time, its
// operation failed, or the machine is gone.
import { formatDuration, PaperspaceError, type PaperspaceNotFoundError } from './errors.js';
import type { MachineEvent, MachineWithEvents } from './schemas.js';

/** waitForState ran out of time. `machine` is the last one observed (absent if none was). */
export class WaitTimeoutError extends PaperspaceError {
  override name = 'WaitTimeoutError';
  readonly machine: MachineWithEvents | undefined;
  readonly targetState: string;
  readonly lastError: unknown;

  constructor(
    machineId: string,
    targetState: string,
    timeoutMs: number,
    machine: MachineWithEvents | undefined,
    lastError: unknown,
  ) {
    const where = machine ? `it is still ${machine.state}` : 'Paperspace could not be asked about it';
    super(
      `${machine?.name ?? machineId} did not become ${targetState} within ${formatDuration(timeoutMs)}; ${where}. ` +
        'Check it with /ps show, or wait again.',
      'machines.waitForState',
      { cause: lastError },
    );
    this.machine = machine;
    this.targetState = targetState;
    this.lastError = lastError;
  }
}

/** The machine's event log reports that the operation being waited for failed. */
export class MachineOperationFailedError extends PaperspaceError {
  override name = 'MachineOperationFailedError';
  readonly machine: MachineWithEvents;
  readonly event: MachineEvent;

  constructor(machine: MachineWithEvents, event: MachineEvent) {
    const reason = event.errorMsg?.trim() ? `: ${event.errorMsg.trim()}` : ` (event state "${event.state}")`;
    super(
      `Paperspace reports that the ${event.name} of ${machine.name} failed${reason}. ` +
        'Check the machine in the Paperspace console before trying again.',
      'machines.waitForState',
    );
    this.machine = machine;
    this.event = event;
  }
}

/** The machine being waited for no longer exists (404 while polling). */
export class MachineGoneError extends PaperspaceError {
  override name = 'MachineGoneError';
  readonly machineId: string;

  constructor(machineId: string, cause: PaperspaceNotFoundError) {
    super(
      `Machine "${machineId}" no longer exists or is no longer visible to your account; ` +
        'it may have been destroyed.',
      'machines.waitForState',
      { cause },
    );
    this.machineId = machineId;
  }
}
