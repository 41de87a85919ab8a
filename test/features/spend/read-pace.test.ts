// The pace of one key's report reads: how many go to Paperspace at once, and how a 429 slows them.
import { describe, expect, it } from 'vitest';
import { readPaceOf } from '../../../src/features/spend/read-pace.js';
import { PaperspaceRateLimitError } from '../../../src/paperspace/errors.js';
import type { RequestOptions } from '../../../src/paperspace/http.js';

const MAYA = { teamId: 'T0ORBIT', userId: 'U0MAYA' };

/** Reads that answer when let go, counting how many are in flight at most. */
function heldReads() {
  let inFlight = 0;
  let most = 0;
  const held: Array<{ options: RequestOptions; answer: () => void }> = [];
  const read = (options: RequestOptions) =>
    new Promise<void>((answer) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      held.push({
        options,
        answer: () => {
          inFlight -= 1;
          answer();
        },
      });
    });
  return { read, held, most: () => most, inFlight: () => inFlight };
}

/** Lets the event loop turn a few times, so the pace can let its reads go. */
const turns = async (count = 50) => {
  for (let turn = 0; turn < count; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

const rateLimited = (retryAfterMs: number) =>
  new PaperspaceRateLimitError({
    operation: 'machines.utilization',
    action: 'read the utilization of machine psmaya01',
    status: 429,
    body: {},
    retryAfterMs,
  });

describe("one key's report reads", () => {
  it('start a few dozen at once and grow as they come back, not one burst of every machine', async () => {
    const pace = readPaceOf({}, MAYA);
    const reads = heldReads();
    const all = Array.from({ length: 500 }, () => pace.run(reads.read));
    await turns();
    const first = reads.inFlight();
    expect(first).toBeGreaterThan(4);
    expect(first).toBeLessThan(100);
    // Every answer makes room for more than one: twice as many each round trip.
    for (const { answer } of reads.held.splice(0)) answer();
    await turns();
    expect(reads.inFlight()).toBeGreaterThan(first);
    while (reads.held.length > 0) {
      for (const { answer } of reads.held.splice(0)) answer();
      await turns();
    }
    await Promise.all(all);
    expect(reads.most()).toBeLessThan(500);
  });

  it('slow down after a 429: about half as many in flight, none let go until Retry-After has passed', async () => {
    const pace = readPaceOf({}, MAYA);
    const reads = heldReads();
    const all = Array.from({ length: 200 }, () => pace.run(reads.read));
    await turns();
    const before = reads.inFlight();
    const [limited] = reads.held;
    limited?.options.onRateLimited?.(rateLimited(200));
    for (const { answer } of reads.held.splice(0)) answer();
    await turns();
    expect(reads.inFlight()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await turns();
    expect(reads.inFlight()).toBeGreaterThan(0);
    expect(reads.inFlight()).toBeLessThan(before * 0.6);
    while (reads.held.length > 0) {
      for (const { answer } of reads.held.splice(0)) answer();
      await turns();
    }
    await Promise.all(all);
  });

  it('send a few requests per turn of the event loop, however many reads come back in one', async () => {
    const pace = readPaceOf({}, MAYA);
    const reads = heldReads();
    const all = Array.from({ length: 500 }, () => pace.run(reads.read));
    await turns();
    const first = reads.held.splice(0);
    expect(first.length).toBeGreaterThan(16);
    // Every answer arrives in one turn, as a wave of Paperspace's replies does: the requests they make
    // room for go out over the next turns, so Slack's requests are read between them.
    for (const { answer } of first) answer();
    for (let tick = 0; tick < 50; tick += 1) await Promise.resolve();
    expect(reads.inFlight()).toBeLessThanOrEqual(16);
    await turns();
    expect(reads.inFlight()).toBeGreaterThan(first.length);
    while (reads.held.length > 0) {
      for (const { answer } of reads.held.splice(0)) answer();
      await turns();
    }
    await Promise.all(all);
  });

  it('slow down once for a burst of 429s, and grow back fast to most of the pace it had', async () => {
    const pace = readPaceOf({}, MAYA);
    const reads = heldReads();
    const all = Array.from({ length: 2000 }, () => pace.run(reads.read));
    // Grown for a few round trips.
    for (let round = 0; round < 3; round += 1) {
      await turns();
      for (const { answer } of reads.held.splice(0)) answer();
    }
    await turns();
    const before = reads.inFlight();
    // Every read of the round trip is refused: one answer from Paperspace, not one per read.
    for (const { options } of reads.held) options.onRateLimited?.(rateLimited(50));
    for (const { answer } of reads.held.splice(0)) answer();
    await new Promise((resolve) => setTimeout(resolve, 80));
    await turns();
    expect(reads.inFlight()).toBeGreaterThanOrEqual(Math.floor(before / 2) - 1);
    // Two round trips later it is back to three quarters of where the 429s came.
    for (let round = 0; round < 2; round += 1) {
      for (const { answer } of reads.held.splice(0)) answer();
      await turns();
    }
    expect(reads.inFlight()).toBeGreaterThanOrEqual(Math.floor((before * 3) / 4) - 1);
    while (reads.held.length > 0) {
      for (const { answer } of reads.held.splice(0)) answer();
      await turns();
    }
    await Promise.all(all);
  });
});
