import { describe, expect, it } from 'vitest';
import {
  type StoredCronEntries,
  type StoredCronEntry,
  storedCronJobs,
} from '../../src/scheduler/stored-cron-jobs.js';
import { captureLogs } from '../support/log-capture.js';
import { createManualCron } from '../support/manual-cron.js';

interface Entry extends StoredCronEntry {
  channel: string;
}

const HOUR = 60 * 60_000;
const START = Date.parse('2030-01-07T08:30:00Z');

/** Entries and claims as the store keeps them, shared by every replica built on it. */
function memoryEntries(entries: Entry[]) {
  const claims = new Map<string, number>();
  const repository: StoredCronEntries<Entry> & { pruned: number[] } = {
    pruned: [],
    listAll: async () => entries.map((entry) => ({ ...entry })),
    async claimRun(id, scheduledAt, { at }) {
      const key = `${id}@${scheduledAt}`;
      if (!entries.some((entry) => entry.id === id) || claims.has(key)) return false;
      claims.set(key, at);
      return true;
    },
    async pruneRuns(before) {
      repository.pruned.push(before);
      return 0;
    },
  };
  return { entries, repository };
}

function replica(name: string, entries: StoredCronEntries<Entry>, clock: { now: number }) {
  const cron = createManualCron(() => clock.now);
  const ran: string[] = [];
  const jobs = storedCronJobs<Entry>({
    noun: 'digest',
    idField: 'digestId',
    entries,
    cron,
    run: async (entry) => {
      ran.push(`${entry.id} in ${entry.channel}`);
    },
    keepRunsMs: 2 * 24 * HOUR,
    now: () => clock.now,
    owner: name,
    logger: captureLogs().logger,
  });
  const [sync, housekeeping] = jobs;
  if (!sync || !housekeeping) throw new Error('expected the sync and housekeeping jobs');
  return { cron, ran, sync, housekeeping };
}

describe('storedCronJobs', () => {
  it('names a sync job and a housekeeping job after the noun', () => {
    const clock = { now: START };
    const { sync, housekeeping } = replica('a', memoryEntries([]).repository, clock);
    expect([sync.name, housekeeping.name]).toEqual(['digests', 'digest housekeeping']);
  });

  it('runs each occurrence on exactly one of two replicas', async () => {
    const clock = { now: START };
    const { repository } = memoryEntries([{ id: 'd1', cron: '0 9 * * *', timezone: 'UTC', channel: 'C1' }]);
    const a = replica('a', repository, clock);
    const b = replica('b', repository, clock);
    await a.sync.start?.();
    await b.sync.start?.();
    clock.now = START + HOUR;
    await a.cron.runDue();
    await b.cron.runDue();
    expect([...a.ran, ...b.ran]).toEqual(['d1 in C1']);
  });

  it('schedules an entry changed in the store anew, so it runs as stored now', async () => {
    // The digests' copy kept a changed entry's old schedule until its id changed; the reminders' did not.
    const clock = { now: START };
    const { entries, repository } = memoryEntries([
      { id: 'd1', cron: '0 9 * * *', timezone: 'UTC', channel: 'C1' },
    ]);
    const a = replica('a', repository, clock);
    await a.sync.start?.();
    entries[0] = { id: 'd1', cron: '0 10 * * *', timezone: 'UTC', channel: 'C2' };
    await a.sync.tick();
    expect(a.cron.jobs().map((job) => job.expression)).toEqual(['0 10 * * *']);
    clock.now = START + 2 * HOUR;
    await a.cron.runDue();
    expect(a.ran).toEqual(['d1 in C2']);
  });

  it('stops the job of a deleted entry, and stops every job when the scheduler stops', async () => {
    const clock = { now: START };
    const { entries, repository } = memoryEntries([
      { id: 'd1', cron: '0 9 * * *', timezone: 'UTC', channel: 'C1' },
      { id: 'd2', cron: '0 9 * * *', timezone: 'UTC', channel: 'C2' },
    ]);
    const a = replica('a', repository, clock);
    await a.sync.start?.();
    entries.splice(0, 1);
    await a.sync.tick();
    expect(a.cron.jobs().map((job) => job.name)).toEqual(['digest:d2']);
    await a.sync.stop?.();
    expect(a.cron.jobs()).toEqual([]);
  });

  it('prunes claims older than it keeps them, at most once an hour', async () => {
    const clock = { now: START };
    const { repository } = memoryEntries([]);
    const a = replica('a', repository, clock);
    await a.housekeeping.tick();
    clock.now += 30 * 60_000;
    await a.housekeeping.tick();
    clock.now += 30 * 60_000;
    await a.housekeeping.tick();
    expect(repository.pruned).toEqual([START - 2 * 24 * HOUR, START + HOUR - 2 * 24 * HOUR]);
  });
});
