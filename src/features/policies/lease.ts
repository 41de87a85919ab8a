// When the team's policies stop a running machine, as a pure function from the rules to a lease. Each
// rule gives a moment: a run limit counts from the machine's run start, or from when the rule was set
// if that is later (a rule applies to machines already running); off-hours stop a machine at the first
// start of off-hours after that. An extension moves a rule's stop to the moment it was extended to,
// and outlives a restart (a later start moves the stop later anyway). An exempted machine has no lease.
// The warning comes WARN_BEFORE_MS before the stop, at once when the stop is nearer than that.
import { nextFireTime } from '../../scheduler/cron-engine.js';
import {
  extensionKey,
  type OffHoursRule,
  type PolicyKind,
  type TeamPolicies,
} from '../../store/team-policies.js';

export const WARN_BEFORE_MS = 30 * 60_000;

/** How much longer Keep running keeps a machine. */
export const EXTENSION_MS = 4 * 3_600_000;

export interface Lease {
  /** Only these rules stop a machine through the bot; the idle timeout is Paperspace's own. */
  kind: Exclude<PolicyKind, 'idle'>;
  stopAt: number;
  warnAt: number;
  /** The Slack user who set the rule: asked to stop with their key when the owner's cannot. */
  setBy: string;
  /** The rule's limit, for a run limit. */
  limitMs?: number;
}

export interface LeaseInput {
  policies: TeamPolicies;
  machineId: string;
  runningSince: number;
  /** `${machineId}/${kind}` to the moment an extension keeps the machine until. */
  extensions: ReadonlyMap<string, number>;
  exempt: boolean;
}

/** The five-field cron expression of the moments off-hours begin. */
function offHoursCron(rule: OffHoursRule): string {
  const [hour, minute] = rule.start.split(':').map(Number);
  return `${minute} ${hour} * * ${rule.days === 'weekdays' ? '1-5' : '*'}`;
}

/** The first start of off-hours after `after`, or undefined when it never comes. */
export function nextOffHours(rule: OffHoursRule, after: number): number | undefined {
  return nextFireTime(offHoursCron(rule), rule.timezone, after);
}

/** The lease of a running machine: the soonest stop of the team's rules, or none. */
export function leaseOf(input: LeaseInput): Lease | undefined {
  if (input.exempt) return undefined;
  const leases: Lease[] = [];
  const extended = (kind: PolicyKind, natural: number) =>
    Math.max(natural, input.extensions.get(extensionKey(input.machineId, kind)) ?? natural);
  const { max_run: maxRun, off_hours: offHours } = input.policies;
  if (maxRun !== undefined) {
    const stopAt = extended('max_run', Math.max(input.runningSince, maxRun.setAt) + maxRun.ms);
    leases.push({
      kind: 'max_run',
      stopAt,
      warnAt: stopAt - WARN_BEFORE_MS,
      setBy: maxRun.setBy,
      limitMs: maxRun.ms,
    });
  }
  if (offHours !== undefined) {
    const begins = nextOffHours(offHours, Math.max(input.runningSince, offHours.setAt));
    if (begins !== undefined) {
      const stopAt = extended('off_hours', begins);
      leases.push({ kind: 'off_hours', stopAt, warnAt: stopAt - WARN_BEFORE_MS, setBy: offHours.setBy });
    }
  }
  return leases.sort((a, b) => a.stopAt - b.stopAt)[0];
}
