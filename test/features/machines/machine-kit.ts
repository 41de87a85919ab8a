// Helpers shared by the machine listener tests: card button values as the card builder writes them,
// and polling for what the bot does after its ack.

import {
  encodeMachineRef,
  machineActionsBlockId,
} from '../../../src/features/machines/blocks/machine-ref.js';
import type { MachineState } from '../../../src/paperspace/constants.js';
import { type TestBot, USERS } from '../../support/test-bot.js';

/** Everything a message or view says, as one string to search. */
export function textOf(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The value a machine card's buttons carry. */
export function cardValue(id: string, name: string): string {
  return encodeMachineRef({ id, name });
}

/** The block_id of a machine card's actions block (what the overflow reads the machine from). */
export function cardBlockId(id: string): string {
  return machineActionsBlockId(id);
}

/** Polls `probe` until it returns something, for work that continues after the ack. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The newest audit record of a machine, once there is one newer than `afterId`. */
export function auditOf(bot: TestBot, resourceId: string, afterId = 0) {
  return eventually(async () => {
    const [newest] = await bot.store.audit.list({ resourceId, limit: 1 });
    return newest && newest.id > afterId ? newest : undefined;
  });
}

/** A short pause to show that something did NOT happen after an answer that came before it. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let spares = 0;

/** A fresh machine of Ada's (unless another owner is named), so each test acts on one of its own. */
export function addSpareMachine(
  bot: TestBot,
  options: { prefix: string; state?: MachineState; owner?: string },
): { id: string; name: string } {
  spares += 1;
  const [id] = bot.emulator.state.addMachines(1, {
    owner: options.owner ?? USERS.ada.emulatorUserId,
    ...(options.state === undefined ? {} : { state: options.state }),
    namePrefix: `${options.prefix}${spares}`,
  });
  const machine = id === undefined ? undefined : bot.emulator.state.machine(id);
  if (!machine) throw new Error('the emulator did not add the machine');
  return { id: machine.id, name: machine.name };
}
