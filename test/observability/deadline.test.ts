import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, withinDeadline } from '../../src/observability/deadline.js';

describe('withinDeadline', () => {
  it('answers what the work answers when it is in time', async () => {
    await expect(withinDeadline('the store', 1000, async () => 'pong')).resolves.toBe('pong');
  });

  it('passes the failure of the work on unchanged', async () => {
    const failure = new Error('disk full');
    await expect(withinDeadline('the store', 1000, () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('gives up on work that hangs, naming what did not answer and for how long', async () => {
    const attempt = withinDeadline('the store', 20, () => new Promise(() => undefined));
    await expect(attempt).rejects.toBeInstanceOf(DeadlineExceededError);
    await expect(attempt).rejects.toThrow('the store did not answer within 20 ms');
  });
});
