import { describe, expect, it } from 'vitest';
import { createRequestScope, requestIdOf } from '../../src/observability/request-scope.js';

describe('createRequestScope', () => {
  it('knows the request through awaits and timers started while serving it', async () => {
    const scope = createRequestScope();
    const seen = await scope.run('req-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return scope.currentId();
    });
    expect(seen).toBe('req-1');
  });

  it('keeps two requests served at once apart, and knows none outside them', async () => {
    const scope = createRequestScope();
    const serve = (id: string, ms: number) =>
      scope.run(id, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return scope.currentId();
      });
    expect(await Promise.all([serve('slow', 10), serve('fast', 1)])).toEqual(['slow', 'fast']);
    expect(scope.currentId()).toBeUndefined();
  });
});

describe('requestIdOf', () => {
  it('reads the id Bolt passes in context, and nothing else', () => {
    expect(requestIdOf({ requestId: 'req-1', botToken: 'xoxb-1' })).toBe('req-1');
    expect(requestIdOf({ requestId: 42 })).toBeUndefined();
    expect(requestIdOf({})).toBeUndefined();
  });
});
