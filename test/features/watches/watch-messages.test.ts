import { describe, expect, it } from 'vitest';
import {
  completionReply,
  finishedNotice,
  formatElapsed,
  rowFinishedLine,
} from '../../../src/features/watches/watch-messages.js';

const watch = {
  userId: 'U0ADA',
  machineName: 'gpu <!channel> & co',
  machineId: 'ps123',
  targetState: 'ready',
  createdAt: 0,
  deadlineAt: 30 * 60_000,
};

describe('formatElapsed', () => {
  it('reads like a stopwatch: seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatElapsed(400)).toBe('0s');
    expect(formatElapsed(45_000)).toBe('45s');
    expect(formatElapsed(134_000)).toBe('2m14s');
    expect(formatElapsed(10 * 60_000)).toBe('10m');
    expect(formatElapsed(65 * 60_000)).toBe('1h05m');
    expect(formatElapsed(2 * 60 * 60_000)).toBe('2h');
  });
});

describe('completionReply', () => {
  it('mentions who asked and keeps a hostile machine name inert', () => {
    const reply = completionReply(watch, { status: 'done', state: 'ready', elapsedMs: 134_000 });
    expect(reply.text).toBe('<@U0ADA> *gpu &lt;!channel&gt; &amp; co* is 🟢 Ready (took 2m14s).');
  });

  it('does not claim the machine is elsewhere when a failed operation left it in the target state', () => {
    const stopWatch = { ...watch, targetState: 'off' };
    const reply = completionReply(stopWatch, {
      status: 'failed',
      operation: 'stop',
      message: 'disk busy',
      state: 'off',
    });
    expect(reply.text).toContain('The stop of');
    expect(reply.text).toContain('failed: disk busy.');
    expect(reply.text).not.toContain('It is');
  });

  it('says how long it waited when it gave up', () => {
    const reply = completionReply(watch, { status: 'timed_out', lastState: 'starting' });
    expect(reply.text).toContain('within 30m');
    expect(reply.text).toContain('It is 🟡 Starting.');
  });
});

describe('finishedNotice', () => {
  it('summarises the outcome in one line for the card', () => {
    expect(finishedNotice(watch, { status: 'done', state: 'ready', elapsedMs: 5000 })).toBe(
      '✅ 🟢 Ready after 5s, requested by <@U0ADA>',
    );
    expect(finishedNotice(watch, { status: 'stopped', reason: 'your key was unlinked' })).toContain(
      'Stopped watching: your key was unlinked',
    );
  });
});

describe('rowFinishedLine', () => {
  const stopWatch = { ...watch, machineName: 'gpu-1', targetState: 'off' };

  it('says a stopped machine is stopped, how long it took and who asked', () => {
    expect(rowFinishedLine(stopWatch, { status: 'done', state: 'off', elapsedMs: 42_000 })).toBe(
      '⚫ *gpu-1*: stopped ✓ after 42s, requested by <@U0ADA>',
    );
  });

  it('says where any other state reached is, and keeps a hostile name inert', () => {
    expect(rowFinishedLine(watch, { status: 'done', state: 'ready', elapsedMs: 134_000 })).toBe(
      '✅ *gpu &lt;!channel&gt; &amp; co*: 🟢 Ready after 2m14s, requested by <@U0ADA>',
    );
  });

  it('names the machine and why when the stop failed or the machine is gone', () => {
    expect(
      rowFinishedLine(stopWatch, {
        status: 'failed',
        operation: 'stop',
        message: 'disk busy',
        state: 'ready',
      }),
    ).toBe('*gpu-1*: ❌ The stop failed: disk busy');
    expect(rowFinishedLine(stopWatch, { status: 'gone' })).toBe('🗑️ *gpu-1* no longer exists');
  });
});
