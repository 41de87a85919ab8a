import { describe, expect, it } from 'vitest';
import { startHarness } from './harness.js';
import { KEY } from './test-seed.js';

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe('templates', () => {
  it('lists the stock templates and the team’s own', async () => {
    const api = await startHarness();
    const acme = await api.get('/templates/getTemplates', { key: KEY.milo });
    expect(ids(acme.body)).toEqual(['t-win', 't-ubuntu', 't-desktop', 't-acme']);
    const other = await api.get('/templates/getTemplates', { key: KEY.otto });
    expect(ids(other.body)).toEqual(['t-win', 't-ubuntu', 't-desktop']);
  });

  it('answers the contract’s fields and filters on them', async () => {
    const api = await startHarness();
    const response = await api.get('/templates/getTemplates', {
      key: KEY.milo,
      query: { teamId: 'te-acme' },
    });
    expect(response.body).toEqual([
      {
        id: 't-acme',
        name: 'te-acme/t-acme',
        label: 'Acme image',
        os: 'Ubuntu 22.04 (Acme)',
        dtCreated: '2024-05-15T09:00:00.000Z',
        teamId: 'te-acme',
        userId: null,
        region: null,
      },
    ]);
    expect(
      ids((await api.get('/templates/getTemplates', { key: KEY.milo, query: { label: 'Windows 10' } })).body),
    ).toEqual(['t-win']);
  });

  it('refuses a filter the contract does not list', async () => {
    const api = await startHarness();
    expect(
      (await api.get('/templates/getTemplates', { key: KEY.milo, query: { family: 'windows' } })).status,
    ).toBe(400);
  });
});

describe('users', () => {
  it('lists the members of the caller’s team', async () => {
    const api = await startHarness();
    const response = await api.get('/users/getUsers', { key: KEY.nora });
    expect(ids(response.body)).toEqual(['u-alma', 'u-milo', 'u-nora']);
    expect(response.body[0]).toEqual({
      id: 'u-alma',
      email: 'alma@acme.example',
      firstname: 'Alma',
      lastname: 'Admin',
      dtCreated: '2024-05-15T09:00:00.000Z',
      teamId: 'te-acme',
    });
  });

  it('lists only the caller on an individual account, under their personal team id', async () => {
    const api = await startHarness();
    const response = await api.get('/users/getUsers', { key: KEY.ivy });
    expect(ids(response.body)).toEqual(['u-ivy']);
    expect(response.body[0].teamId).toEqual(expect.any(String));
    expect(response.body[0].teamId).not.toBe('te-acme');
  });

  it('filters by e-mail and first name', async () => {
    const api = await startHarness();
    const byEmail = await api.get('/users/getUsers', {
      key: KEY.alma,
      query: { email: 'milo@acme.example' },
    });
    expect(ids(byEmail.body)).toEqual(['u-milo']);
    const byName = await api.get('/users/getUsers', { key: KEY.alma, query: { firstname: 'Otto' } });
    expect(byName.body).toEqual([]);
  });
});

describe('networks', () => {
  it('lists the account’s networks with their region and address space', async () => {
    const api = await startHarness();
    const response = await api.get('/networks/getNetworks', { key: KEY.milo });
    expect(ids(response.body)).toEqual(['n-acme-ny', 'n-acme-tiny']);
    expect(response.body[1]).toMatchObject({
      region: 'Europe (AMS1)',
      network: '10.2.0.0',
      netmask: '255.255.255.248',
      teamId: 'te-acme',
    });
  });

  it('filters by region', async () => {
    const api = await startHarness();
    const response = await api.get('/networks/getNetworks', {
      key: KEY.milo,
      query: { region: 'East Coast (NY2)' },
    });
    expect(ids(response.body)).toEqual(['n-acme-ny']);
  });
});
