// What the bot does to a machine, apart from Slack: every change runs with the acting person's own
// client and through the audit trail, and answers what the caller needs to show next (the machine as
// it is after the call, and which state a watch should wait for).
import { billingMonthAsked } from '../../domain/billing-month.js';
import { bootedStateOf, isBooted } from '../../domain/machine-states.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { WaitableState } from '../../paperspace/constants.js';
import {
  PaperspaceConnectionError,
  PaperspaceServerError,
  PaperspaceTimeoutError,
  PaperspaceUnexpectedResponseError,
} from '../../paperspace/errors.js';
import type {
  CreateMachineParams,
  TemplateInfo,
} from '../../paperspace/request-params/machine-create-params.js';
import type { UpdateMachineParams } from '../../paperspace/request-params/machine-params.js';
import type { Machine, MachineUtilization, MachineWithEvents } from '../../paperspace/schemas.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

/** Who acts: the person, and a client carrying their own key. */
export interface Actor {
  user: SlackUser;
  client: PaperspaceClient;
}

export type PowerVerb = 'start' | 'stop' | 'restart';

/** Why a power request was not sent: the machine is already where it was asked to go. */
export type UnchangedReason = 'already_off' | 'already_running' | 'off_cannot_restart';

export type PowerOutcome =
  /** The request was accepted; `machine` is re-read after it, `targetState` is where it is heading. */
  | {
      kind: 'requested';
      machine: Machine;
      targetState: WaitableState;
      /** The event that follows the operation, where the API names one (v1); null otherwise. */
      eventId: string | null;
    }
  | { kind: 'unchanged'; machine: Machine; reason: UnchangedReason }
  /**
   * Nothing was sent: the same operation of this machine was asked for moments ago (two clicks arriving
   * together) and is being sent or was just sent; `by` asked at `at`.
   */
  | { kind: 'already_requested'; machine: Machine; by: string; at: number };

/**
 * How long a start, stop or restart holds its claim (store/power-claims.ts): from before the Paperspace
 * call until the machine has surely left the state the second click read, after which the machine's
 * state and its watch tell a later click that the change is under way.
 */
const POWER_CLAIM_MS = 30_000;

/**
 * The longest a start, stop or restart call (with the client's retries) may take: an intent older than
 * this that the machine shows no sign of was not acted on (watches/intent-recovery.ts waits longer).
 */
export const POWER_CALL_MS = 40_000;

/** Runs a power call cut off at POWER_CALL_MS, as a timeout the person can be told about. */
async function withCallDeadline<T>(verb: PowerVerb, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new PaperspaceTimeoutError(`machines.${verb}`, `${verb} the machine`, POWER_CALL_MS, {
          mayHaveSucceeded: true,
        }),
      ),
    POWER_CALL_MS,
  );
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** Paperspace refused the request, or it never left: no machine can have moved because of it. */
function provesNotSent(error: unknown): boolean {
  if (error instanceof PaperspaceConnectionError) return false;
  if (error instanceof PaperspaceServerError || error instanceof PaperspaceUnexpectedResponseError)
    return false;
  return true;
}

export interface CreateOutcome {
  machine: Machine;
  /** The state to watch for: where a boot ends, or off when the machine is not started on creation. */
  targetState: WaitableState;
}

export type UpdateOutcome =
  | { machine: MachineWithEvents; rereadError?: undefined }
  /** Paperspace accepted the change; only reading the machine back failed, so there is no fresh card. */
  | { machine?: undefined; rereadError: unknown };

/**
 * The durable record of a power request (its watch), written after the claim and before the call, so
 * that a replica dying or losing its database between the call and the watch leaves a trace another
 * replica settles (watches/intent-recovery.ts) instead of a machine powered and never followed.
 */
export interface PowerIntent {
  /** Records the request about to be sent; throwing sends nothing. */
  record(targetState: WaitableState): Promise<void>;
  /** Paperspace refused the request: nothing went out, and nothing is to be followed. */
  abandon(): Promise<void>;
}

export interface MachineOperations {
  power(actor: Actor, machine: Machine, verb: PowerVerb, intent?: PowerIntent): Promise<PowerOutcome>;
  create(actor: Actor, params: CreateMachineParams, template?: TemplateInfo): Promise<CreateOutcome>;
  /** Applies the change and answers the machine re-read afterwards, if that read succeeded. */
  update(actor: Actor, machineId: string, params: UpdateMachineParams): Promise<UpdateOutcome>;
  destroy(actor: Actor, machineId: string, options: { releasePublicIp: boolean }): Promise<void>;
  setAccess(
    actor: Actor,
    machineId: string,
    change: { paperspaceUserId: string; enableAccess: boolean },
  ): Promise<void>;
  /** Usage in a billing month (`YYYY-MM`); the current UTC month when null. */
  usage(actor: Actor, machineId: string, month: string | null): Promise<MachineUtilization>;
}

export function createMachineOperations(deps: {
  audit: AuditTrail;
  now: () => number;
  store: Pick<Store, 'powerClaims'>;
}): MachineOperations {
  const { audit } = deps;

  /** A re-read for the card; if it fails after the change succeeded, the change still stands. */
  const reread = async (client: PaperspaceClient, fallback: Machine): Promise<Machine> => {
    try {
      return await client.machines.show(fallback.id);
    } catch {
      return fallback;
    }
  };

  return {
    async power({ user, client }, machine, verb, intent) {
      const unchanged = unchangedReason(machine.state, verb);
      if (unchanged) return { kind: 'unchanged', machine, reason: unchanged };
      const at = deps.now();
      const place = { teamId: user.teamId, machineId: machine.id };
      const claim = await deps.store.powerClaims.claim({
        ...place,
        operation: verb,
        userId: user.userId,
        at,
        expiresAt: at + POWER_CLAIM_MS,
      });
      if (!claim.claimed)
        return { kind: 'already_requested', machine, by: claim.heldBy.userId, at: claim.heldBy.claimedAt };
      // Nothing is under way: asking again at once must be sent, not refused as a second click. The
      // release is best effort: the claim expires anyway, and the caller's own failure is what to tell.
      const release = () =>
        deps.store.powerClaims.release({ ...place, claimId: claim.claimId }).catch(() => undefined);
      const targetState = verb === 'stop' ? 'off' : bootedStateOf(machine);
      try {
        await intent?.record(targetState);
      } catch (error) {
        await release();
        throw error;
      }
      let receipt: Awaited<ReturnType<PaperspaceClient['machines'][PowerVerb]>>;
      try {
        receipt = await audit.run({ user, action: `machine.${verb}`, resourceId: machine.id }, () =>
          withCallDeadline(verb, (signal) => client.machines[verb](machine.id, { signal })),
        );
      } catch (error) {
        // A request Paperspace may have acted on (no answer, a server error) stays recorded: the
        // recovery learns from the machine whether it went out.
        if (provesNotSent(error)) {
          await release();
          await intent?.abandon();
        }
        throw error;
      }
      const after = await reread(client, machine);
      return { kind: 'requested', machine: after, targetState, eventId: receipt.eventId };
    },

    async create({ user, client }, params, template) {
      const machine = await audit.run(
        { user, action: 'machine.create' },
        () => client.machines.create(params, template ? { template } : {}),
        (created) => created.id,
      );
      // The contract makes startOnCreate default to true. Without a start the machine rests off once
      // provisioned: that is followed too, so its card does not say "Provisioning…" for good.
      const targetState = params.startOnCreate === false ? 'off' : bootedStateOf(machine);
      return { machine, targetState };
    },

    async update({ user, client }, machineId, params) {
      if (params.machineName !== undefined) await refuseTakenName(client, machineId, params.machineName);
      await audit.run({ user, action: 'machine.update', resourceId: machineId }, () =>
        client.machines.update(machineId, params),
      );
      // The change is made whatever this read answers: a failure here must never read as a refusal.
      try {
        return { machine: await client.machines.show(machineId) };
      } catch (rereadError) {
        return { rereadError };
      }
    },

    async destroy({ user, client }, machineId, { releasePublicIp }) {
      await audit.run({ user, action: 'machine.destroy', resourceId: machineId }, () =>
        client.machines.destroy(machineId, releasePublicIp ? { releasePublicIp } : {}),
      );
    },

    async setAccess({ user, client }, machineId, { paperspaceUserId, enableAccess }) {
      const action = enableAccess ? 'machine.access.grant' : 'machine.access.revoke';
      await audit.run(
        { user, action, resourceId: machineId, note: `Paperspace user ${paperspaceUserId}` },
        () => client.machines.setAccess(machineId, { userId: paperspaceUserId, enableAccess }),
      );
    },

    usage({ client }, machineId, month) {
      return client.machines.utilization(machineId, billingMonthAsked(month, deps.now()));
    },
  };
}

/**
 * Commands find machines by name, case-insensitively; a second machine with the same name would make
 * every later lookup of either answer "matches 2 machines". Paperspace allows it, so the bot refuses.
 */
async function refuseTakenName(client: PaperspaceClient, machineId: string, name: string): Promise<void> {
  const wanted = name.toLocaleLowerCase();
  for await (const other of client.machines.listAll()) {
    if (other.id !== machineId && other.name.toLocaleLowerCase() === wanted) {
      throw new UserFacingError(
        `Another machine is already called ${other.name}, and commands find machines by name. ` +
          'Choose a name no other machine has.',
      );
    }
  }
}

/**
 * Requests that would change nothing. The contract makes stop on an off machine a no-op, and start on
 * a running one; restart on an off machine would start it, which is not what "restart" promises.
 */
function unchangedReason(state: string, verb: PowerVerb): UnchangedReason | undefined {
  if (verb === 'stop' && state === 'off') return 'already_off';
  if (verb === 'restart' && state === 'off') return 'off_cannot_restart';
  if (verb === 'start' && isBooted(state)) return 'already_running';
  return undefined;
}
