import { describe, expect, it } from 'vitest';
import { gatherStatements } from '../../src/store/gathered-statements.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A statement runner that records what each statement carried and answers when told to. */
function recordedStatements(fail: (items: readonly number[]) => boolean = () => false) {
  const statements: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: readonly number[]) => {
    statements.push([...items]);
    return new Promise<number[]>((resolve, reject) => {
      pending.push(() =>
        fail(items)
          ? reject(new Error(`statement of ${items.join(',')} failed`))
          : resolve(items.map((x) => x * 10)),
      );
    });
  };
  /** Answers every statement, those that start meanwhile included, until none is left running. */
  const answerAll = async () => {
    await turn();
    while (pending.length > 0) {
      for (const answer of pending.splice(0)) answer();
      await turn();
    }
  };
  return { statements, run, answerAll };
}

describe('gatherStatements', () => {
  it('runs a lone write at once, and those asked while it runs together in the next statement', async () => {
    const db = recordedStatements();
    const write = gatherStatements(db.run, 100);
    const first = write(1);
    await turn();
    expect(db.statements).toEqual([[1]]);

    const rest = [2, 3, 4, 5].map(write);
    await turn();
    // Still waiting for the running statement: nothing else has gone.
    expect(db.statements).toEqual([[1]]);
    await db.answerAll();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50]);
    expect(db.statements).toEqual([[1], [2, 3, 4, 5]]);
  });

  it('takes at most maxItems in one statement', async () => {
    const db = recordedStatements();
    const write = gatherStatements(db.run, 3);
    const results = Promise.all([1, 2, 3, 4, 5, 6, 7].map(write));
    await db.answerAll();
    expect(await results).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(db.statements).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('fails the writes of a failed statement only, and goes on with the next', async () => {
    const db = recordedStatements((items) => items.includes(2));
    const write = gatherStatements(db.run, 100);
    const first = write(1);
    await turn();
    const failed = [2, 3].map((item) => write(item).catch((error: Error) => error.message));
    await db.answerAll();
    const later = write(4);
    await db.answerAll();
    expect(await first).toBe(10);
    expect(await Promise.all(failed)).toEqual(['statement of 2,3 failed', 'statement of 2,3 failed']);
    expect(await later).toBe(40);
  });
});
