// How long a machine may run before its owner is asked about it: their own setting, else the
// workspace default an administrator set, else eight hours.
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

export const DEFAULT_THRESHOLD_MS = 8 * 60 * 60_000;

export interface EffectiveThreshold {
  /** Milliseconds, or null when alerts are off. */
  ms: number | null;
  source: 'own' | 'team' | 'default';
}

export async function thresholdOf(
  store: Pick<Store, 'costAlerts'>,
  user: SlackUser,
): Promise<EffectiveThreshold> {
  const own = await store.costAlerts.threshold(user);
  if (own !== undefined) return { ms: own, source: 'own' };
  const team = await store.costAlerts.teamDefault(user.teamId);
  if (team !== undefined) return { ms: team, source: 'team' };
  return { ms: DEFAULT_THRESHOLD_MS, source: 'default' };
}

/** "8h", "1h30m", "45m": how a person types it back. */
export function formatThreshold(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.round((ms % 3_600_000) / 60_000);
  return `${hours > 0 ? `${hours}h` : ''}${minutes > 0 || hours === 0 ? `${minutes}m` : ''}`;
}
