// When each person's cost check may begin. Every person is checked once per CHECK_EVERY_MS, but a
// replica that starts (or takes over) thousands of people at once would otherwise find all of them due
// in the same tick, check them all then, and find them all due together again five minutes later: each
// time a few database reads and writes per person in one tick, which holds up every watch's poll in
// that tick. So checks begin under a budget refilled at twice the rate that checks everyone once
// per interval: a first storm is spread over a couple of minutes and stays spread, while a small
// team's checks (up to CHECK_BURST people) all begin at once, as before.

/** Checks that may begin at once: a team this size is checked on its first tick. */
const CHECK_BURST = 100;

/**
 * The budget saves up at most this share of an interval's checks, so people taken over at once from a
 * replica that died are spread out too rather than all begun from savings.
 */
const SAVED_SHARE = 0.1;

export interface CheckStarts {
  /**
   * Whether `person`'s check may begin now: it is due (never checked here, or CHECK_EVERY_MS since the
   * last) and the budget allows. A yes is kept until `begin` (a poll that fails before its check asks
   * again at the next tick without taking another place).
   */
  due(person: string, now: number): boolean;
  /** Begins a check that `due` allowed: answers false when it did not (the list was made for watches). */
  begin(person: string, now: number): boolean;
}

export function createCheckStarts(everyMs: number): CheckStarts {
  /** When each person this replica polls was last asked about and last checked. */
  const people = new Map<string, { askedAt: number; checkedAt: number | undefined }>();
  const allowed = new Set<string>();
  let tokens = CHECK_BURST;
  let refilledAt: number | undefined;
  let sweptAt: number | undefined;

  /** Forgets people no longer asked about (held by another replica, or unlinked), now and then. */
  function sweep(now: number): void {
    sweptAt ??= now;
    if (now - sweptAt < everyMs) return;
    sweptAt = now;
    for (const [person, { askedAt }] of people) {
      if (now - askedAt <= 2 * everyMs) continue;
      people.delete(person);
      allowed.delete(person);
    }
  }

  function takeToken(now: number): boolean {
    const perMs = (2 * people.size) / everyMs;
    const capacity = Math.max(CHECK_BURST, perMs * everyMs * SAVED_SHARE);
    tokens = Math.min(capacity, tokens + (now - (refilledAt ?? now)) * perMs);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  }

  return {
    due(person, now) {
      sweep(now);
      const seen = people.get(person) ?? { askedAt: now, checkedAt: undefined };
      seen.askedAt = now;
      people.set(person, seen);
      if (allowed.has(person)) return true;
      if (seen.checkedAt !== undefined && now - seen.checkedAt < everyMs) return false;
      if (!takeToken(now)) return false;
      allowed.add(person);
      return true;
    },

    begin(person, now) {
      if (!allowed.delete(person)) return false;
      const seen = people.get(person);
      if (seen !== undefined) seen.checkedAt = now;
      return true;
    },
  };
}
