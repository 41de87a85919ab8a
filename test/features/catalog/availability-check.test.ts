import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAvailability, mapWithConcurrency } from '../../../src/features/catalog/availability-check.js';
import { createPaperspaceClient } from '../../../src/paperspace/client.js';
import { DEDICATED_GPU_MACHINE_TYPES } from '../../../src/paperspace/constants.js';
import { PaperspaceAuthenticationError } from '../../../src/paperspace/errors.js';
import { type RunningEmulator, startEmulator } from '../../../tools/emulator/index.js';

describe('mapWithConcurrency', () => {
  it('never runs more tasks at once than the limit, and keeps the order of the items', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0, 2, 1], 3, async (delay) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running -= 1;
      return delay * 10;
    });
    expect(most).toBe(3);
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 20, 10]);
  });

  it('refuses a limit below one', async () => {
    await expect(mapWithConcurrency([1], 0, async (item) => item)).rejects.toThrow(RangeError);
  });
});

describe('checkAvailability', () => {
  let emulator: RunningEmulator;
  const client = (apiKey: string) =>
    createPaperspaceClient({ apiKey, baseUrl: emulator.url, graphqlUrl: emulator.graphqlUrl, maxRetries: 0 });

  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('asks for every region and given type, in order', async () => {
    const cells = await checkAvailability(client('demo-key-ada-individual'), {
      region: null,
      machineTypes: ['P6000'],
    });
    expect(cells).toEqual([
      { region: 'West Coast (CA1)', machineType: 'P6000', available: true },
      { region: 'East Coast (NY2)', machineType: 'P6000', available: false },
      { region: 'Europe (AMS1)', machineType: 'P6000', available: false },
    ]);
  });

  it('marks the cells whose check failed, and keeps the others', async () => {
    emulator.state.failNextRequests({ count: 1, status: 500, path: '/machines/getAvailability' });
    const cells = await checkAvailability(
      client('demo-key-ada-individual'),
      { region: 'West Coast (CA1)', machineTypes: DEDICATED_GPU_MACHINE_TYPES },
      { concurrency: 1 },
    );
    expect(cells.map((cell) => cell.available)).toEqual(['error', true, true, true, true]);
  });

  it('throws a rejected key once rather than answering a grid of failures', async () => {
    await expect(
      checkAvailability(client('no-such-key-000'), {
        region: null,
        machineTypes: DEDICATED_GPU_MACHINE_TYPES,
      }),
    ).rejects.toThrow(PaperspaceAuthenticationError);
  });
});
