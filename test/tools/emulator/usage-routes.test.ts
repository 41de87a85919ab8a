import { describe, expect, it } from 'vitest';
import { nestedError, startHarness, TRANSITION_MS } from './harness.js';
import { KEY } from './test-seed.js';

const HOUR = 3_600_000;

describe('utilization', () => {
  it('accrues secondsUsed while the machine runs, at the machine type’s hourly rate', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(HOUR);
    await api.post('/machines/ps-ivy-off/stop', { key: KEY.ivy });
    api.clock.advance(5 * HOUR);
    const response = await api.get('/machines/getUtilization', {
      key: KEY.ivy,
      query: { machineId: 'ps-ivy-off', billingMonth: '2024-05' },
    });
    expect(response.status).toBe(200);
    // Starting, running and stopping are billed; the stop takes one transition.
    expect(response.body).toEqual({
      machineId: 'ps-ivy-off',
      utilization: {
        machineId: 'ps-ivy-off',
        secondsUsed: 3600 + TRANSITION_MS / 1000,
        hourlyRate: '0.036',
        billingMonth: '2024-05',
      },
      storageUtilization: {
        machineId: 'ps-ivy-off',
        secondsUsed: 6 * 3600,
        monthlyRate: '5.00',
        billingMonth: '2024-05',
      },
    });
  });

  it('keeps counting while the machine is still running', async () => {
    const api = await startHarness();
    const query = { machineId: 'ps-ivy-ready', billingMonth: '2024-05' };
    const before = (await api.get('/machines/getUtilization', { key: KEY.ivy, query })).body.utilization
      .secondsUsed;
    api.clock.advance(90_500);
    const after = (await api.get('/machines/getUtilization', { key: KEY.ivy, query })).body;
    expect(after.utilization.secondsUsed - before).toBe(90.5);
    expect(after.utilization.hourlyRate).toBe('0.51');
    expect(after.storageUtilization.monthlyRate).toBe('10.00');
  });

  it('counts nothing in a month in which the machine did not exist', async () => {
    const api = await startHarness();
    const response = await api.get('/machines/getUtilization', {
      key: KEY.ivy,
      query: { machineId: 'ps-ivy-ready', billingMonth: '2024-04' },
    });
    expect(response.body.utilization.secondsUsed).toBe(0);
    expect(response.body.storageUtilization.secondsUsed).toBe(0);
  });

  it('splits usage at the month boundary', async () => {
    const api = await startHarness();
    api.clock.set(Date.UTC(2024, 5, 30, 23, 0, 0));
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(2 * HOUR);
    const usage = async (billingMonth: string) =>
      (
        await api.get('/machines/getUtilization', {
          key: KEY.ivy,
          query: { machineId: 'ps-ivy-off', billingMonth },
        })
      ).body.utilization.secondsUsed;
    expect(await usage('2024-06')).toBe(3600);
    expect(await usage('2024-07')).toBe(3600);
  });

  it.each([
    [{ machineId: 'ps-ivy-ready' }, /billingMonth is required/],
    [{ billingMonth: '2024-05' }, /machineId is required/],
    [{ machineId: 'ps-ivy-ready', billingMonth: '2024-13' }, /YYYY-MM/],
    [{ machineId: 'ps-ivy-ready', billingMonth: 'May 2024' }, /YYYY-MM/],
  ])('refuses %j with 400', async (query, message) => {
    const api = await startHarness();
    const response = await api.get('/machines/getUtilization', { key: KEY.ivy, query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nestedError(400));
    expect(response.body.error.message).toMatch(message);
  });

  it("answers 404 for another account's machine", async () => {
    const api = await startHarness();
    const query = { machineId: 'ps-ivy-ready', billingMonth: '2024-05' };
    expect((await api.get('/machines/getUtilization', { key: KEY.otto, query })).status).toBe(404);
  });
});

describe('availability', () => {
  it('reports dedicated GPU types per region; types a region lacks are unavailable', async () => {
    const api = await startHarness();
    const available = async (region: string, machineType: string) =>
      (await api.get('/machines/getAvailability', { key: KEY.milo, query: { region, machineType } })).body
        .available;
    expect(await available('West Coast (CA1)', 'V100')).toBe(true);
    expect(await available('Europe (AMS1)', 'V100')).toBe(false);
    expect(await available('East Coast (NY2)', 'P6000')).toBe(false);
  });

  it('follows availability changes made through the test controls', async () => {
    const api = await startHarness();
    api.emulator.state.setAvailability('Europe (AMS1)', 'V100', true);
    const response = await api.get('/machines/getAvailability', {
      key: KEY.milo,
      query: { region: 'Europe (AMS1)', machineType: 'V100' },
    });
    expect(response.body).toEqual({ available: true });
  });

  it.each([
    [{ region: 'West Coast (CA1)', machineType: 'C4' }, /only for GPU\+, P4000, P5000, P6000, V100/],
    [{ region: 'West Coast (CA1)', machineType: 'Air' }, /only for/],
    [{ region: 'Moon', machineType: 'V100' }, /region must be one of/],
    [{ region: 'West Coast (CA1)' }, /machineType is required/],
  ])('refuses %j with 400', async (query, message) => {
    const api = await startHarness();
    const response = await api.get('/machines/getAvailability', { key: KEY.milo, query });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });
});
