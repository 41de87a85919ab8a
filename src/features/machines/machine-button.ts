// A button that names one machine in its value (a reminder's Stop, Snooze and Keep running, Share on a
// card): the platform's button handler with the machine read from the value. A value that cannot be
// read is a bug or a forged request; it throws, and the clicker is told.
import { type ButtonArgs, type ButtonClick, buttonHandler } from '../../slack/button-click.js';
import type { PlatformDeps } from '../../slack/platform-deps.js';
import { decodeMachineRef, type MachineRef } from './blocks/machine-ref.js';

export interface MachineButtonClick extends ButtonClick {
  machine: MachineRef;
}

export function machineButtonHandler(
  deps: PlatformDeps,
  handle: (click: MachineButtonClick, args: ButtonArgs) => Promise<void>,
): (args: ButtonArgs) => Promise<void> {
  return buttonHandler(deps, (click, args) =>
    handle({ ...click, machine: decodeMachineRef(click.value) }, args),
  );
}
