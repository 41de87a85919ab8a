import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../tools/emulator/index.js';
import { nestedError, startHarness } from './harness.js';
import { KEY } from './test-seed.js';

describe('startEmulator', () => {
  it('listens on a free port and answers its REST and GraphQL URLs', async () => {
    const api = await startHarness();
    expect(api.emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(api.emulator.graphqlUrl).toBe(`${api.emulator.url}/graphql`);
  });

  it('stops accepting connections once closed', async () => {
    const emulator = await startEmulator({ transitionMs: 0 });
    await emulator.close();
    await expect(fetch(`${emulator.url}/users/getUsers`)).rejects.toThrow();
  });

  it.each([
    [{ port: -1 }, /port/],
    [{ failRate: 2 }, /failRate/],
    [{ rateLimit: 0 }, /rateLimit/],
    [{ transitionMs: -5 }, /transitionMs/],
    [{ latencyMs: Number.NaN }, /latencyMs/],
  ])('refuses the option %j', async (options, message) => {
    await expect(startEmulator(options)).rejects.toThrow(message);
  });
});

describe('malformed requests', () => {
  it('answers 400 to a path with broken percent-encoding', async () => {
    const api = await startHarness();
    const response = await api.post('/machines/%E0%A4%A/start', { key: KEY.ivy });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nestedError(400));
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const api = await startHarness();
    const response = await fetch(`${api.emulator.url}/scripts/createScript`, {
      method: 'POST',
      headers: { 'X-Api-Key': KEY.ivy, 'Content-Type': 'application/json' },
      body: JSON.stringify({ scriptName: 'huge', scriptText: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.status).toBe(413);
  });

  it('answers 405 to a GraphQL GET', async () => {
    const api = await startHarness();
    const response = await fetch(`${api.emulator.graphqlUrl}?query=%7B__typename%7D`);
    expect(response.status).toBe(405);
    expect(((await response.json()) as { errors: unknown[] }).errors).toHaveLength(1);
  });
});
