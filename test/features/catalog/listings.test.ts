import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../src/errors/user-facing-error.js';
import { fetchListing, typedFilters } from '../../../src/features/catalog/listings.js';
import { createPaperspaceClient, type PaperspaceClient } from '../../../src/paperspace/client.js';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import { machineListFiltersSchema } from '../../../src/paperspace/request-params/machine-params.js';
import { scriptListFiltersSchema } from '../../../src/paperspace/request-params/script-params.js';
import { type RunningEmulator, startEmulator } from '../../../tools/emulator/index.js';

describe('typedFilters', () => {
  it('types number and boolean filters as the schema declares them', () => {
    expect(
      typedFilters(machineListFiltersSchema, {
        cpus: '4',
        updatesPending: 'FALSE',
        state: 'off',
        name: '12',
      }),
    ).toEqual({ cpus: 4, updatesPending: false, state: 'off', name: '12' });
    expect(typedFilters(scriptListFiltersSchema, { isEnabled: 'true', runOnce: 'no' })).toEqual({
      isEnabled: true,
      runOnce: 'no',
    });
  });

  it('leaves a value of the wrong type as text, so the schema can name the filter', () => {
    expect(typedFilters(machineListFiltersSchema, { cpus: 'four', shutdownTimeoutInHours: '1.5' })).toEqual({
      cpus: 'four',
      shutdownTimeoutInHours: 1.5,
    });
  });

  it('keeps keys the schema does not know, without looking them up on its prototype', () => {
    expect(typedFilters(machineListFiltersSchema, { toString: '1', colour: 'red' })).toEqual({
      toString: '1',
      colour: 'red',
    });
  });
});

describe('fetchListing', () => {
  let emulator: RunningEmulator;
  let client: PaperspaceClient;

  beforeAll(async () => {
    emulator = await startEmulator();
    emulator.state.addMachines(1200, { owner: 'u1ada', namePrefix: 'many' });
    client = createPaperspaceClient({
      apiKey: 'demo-key-ada-individual',
      baseUrl: emulator.url,
      graphqlUrl: emulator.graphqlUrl,
    });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('fetches every machine across pages of 1000, filtered', async () => {
    const all = await fetchListing(client, 'machines', {});
    expect(all.items).toHaveLength(1203);
    const off = await fetchListing(client, 'machines', { state: 'off' });
    expect(off.items.every((machine) => machine.state === 'off')).toBe(true);
  });

  it('does not let a limit smuggled into the filters cut the list', async () => {
    const listing = await fetchListing(client, 'machines', { limit: '1', skip: '5' });
    expect(listing.items).toHaveLength(1203);
  });

  it('refuses a filter the API does not take, naming it, before anything is sent', async () => {
    await expect(fetchListing(client, 'networks', { colour: 'red' })).rejects.toThrow(RequestValidationError);
    await expect(fetchListing(client, 'networks', { colour: 'red' })).rejects.toThrow(
      /colour is not a parameter/,
    );
  });

  it('refuses filters on shared drives, which cannot be filtered', async () => {
    await expect(fetchListing(client, 'drives', { name: 'x' })).rejects.toThrow(UserFacingError);
  });
});
