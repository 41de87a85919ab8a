// Every mutating action writes one audit record with its outcome, whether it succeeded or not. The
// record is written after the action, so a failing audit write never blocks the action itself, and
// the action's own error (not the audit's) is what the caller sees.
import type { Logger } from 'pino';
import type { AuditRepository } from './audit-records.js';
import type { SlackUser } from './slack-user.js';

interface AuditedAction {
  user: SlackUser;
  /** What was done, e.g. `machine.start`, `script.create`. */
  action: string;
  /** The machine, script, drive... it was done to, when known up front. */
  resourceId?: string;
  /**
   * What else an auditor needs to tell one such action from another: whom access was granted to,
   * where a share was posted. Kept with the outcome; never a secret.
   */
  note?: string;
}

export interface AuditTrail {
  /**
   * Runs `perform` and records its outcome. `resourceIdOf` names the resource from the result when it
   * only exists afterwards (a created machine).
   */
  run<T>(entry: AuditedAction, perform: () => Promise<T>, resourceIdOf?: (result: T) => string): Promise<T>;
}

export function createAuditTrail(deps: {
  audit: Pick<AuditRepository, 'record'>;
  now: () => number;
  logger: Logger;
}): AuditTrail {
  const write = async (entry: AuditedAction, resourceId: string | undefined, failure: unknown) => {
    try {
      await deps.audit.record({
        teamId: entry.user.teamId,
        userId: entry.user.userId,
        action: entry.action,
        resourceId: resourceId ?? null,
        outcome: failure === undefined ? 'ok' : 'error',
        // Error messages of the client and of services never carry secrets (both redact), so the
        // message is safe to keep; anything else is reduced to its class name.
        message: messageOf(entry.note, failure),
        at: deps.now(),
      });
    } catch (error) {
      deps.logger.error({ err: error, action: entry.action }, 'could not write the audit record');
    }
  };

  return {
    async run(entry, perform, resourceIdOf) {
      let result: Awaited<ReturnType<typeof perform>>;
      try {
        result = await perform();
      } catch (error) {
        await write(entry, entry.resourceId, error);
        throw error;
      }
      await write(entry, resourceIdOf ? resourceIdOf(result) : entry.resourceId, undefined);
      return result;
    },
  };
}

function messageOf(note: string | undefined, failure: unknown): string | null {
  if (failure === undefined) return note ?? null;
  return note === undefined ? failureSummary(failure) : `${note}; ${failureSummary(failure)}`;
}

function failureSummary(failure: unknown): string {
  return failure instanceof Error ? `${failure.name}: ${failure.message}` : 'unknown failure';
}
