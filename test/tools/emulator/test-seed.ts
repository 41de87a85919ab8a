// A small world for the emulator's tests, independent of the demo seed: an individual account, a
// team (administrator and two members) and a second team, so every authorization rule has a caller
// on each side of it.
import type { SeedInput } from '../../../tools/emulator/index.js';

export const KEY = {
  ivy: 'key-ivy-individual',
  alma: 'key-alma-acme-admin',
  milo: 'key-milo-acme-member',
  nora: 'key-nora-acme-member',
  otto: 'key-otto-other-admin',
} as const;

export const TOKEN = {
  ivy: 'token-ivy-individual',
  alma: 'token-alma-acme-admin',
  milo: 'token-milo-acme-member',
  otto: 'token-otto-other-admin',
} as const;

export const TEST_SEED: SeedInput = {
  teams: [
    { id: 'te-acme', name: 'Acme' },
    { id: 'te-other', name: 'Other Co' },
  ],
  users: [
    {
      id: 'u-ivy',
      email: 'ivy@example.com',
      firstname: 'Ivy',
      lastname: 'Stone',
      apiKey: KEY.ivy,
      accessToken: TOKEN.ivy,
    },
    {
      id: 'u-alma',
      email: 'alma@acme.example',
      firstname: 'Alma',
      lastname: 'Admin',
      team: 'te-acme',
      role: 'admin',
      apiKey: KEY.alma,
      accessToken: TOKEN.alma,
    },
    {
      id: 'u-milo',
      email: 'milo@acme.example',
      firstname: 'Milo',
      lastname: 'Member',
      team: 'te-acme',
      role: 'member',
      apiKey: KEY.milo,
      accessToken: TOKEN.milo,
    },
    {
      id: 'u-nora',
      email: 'nora@acme.example',
      firstname: 'Nora',
      lastname: 'Member',
      team: 'te-acme',
      apiKey: KEY.nora,
    },
    {
      id: 'u-otto',
      email: 'otto@other.example',
      firstname: 'Otto',
      lastname: 'Other',
      team: 'te-other',
      role: 'admin',
      apiKey: KEY.otto,
      accessToken: TOKEN.otto,
    },
  ],
  templates: [
    { id: 't-win', name: 'paperspace/t-win', label: 'Windows 10', os: 'Windows 10 (Server 2016)' },
    { id: 't-ubuntu', name: 'paperspace/t-ubuntu', label: 'Ubuntu 20.04 Server', os: 'Ubuntu 20.04' },
    {
      id: 't-desktop',
      name: 'paperspace/t-desktop',
      label: 'Ubuntu Desktop',
      os: 'Ubuntu 22.04',
      agentType: 'LinuxDesktop',
    },
    {
      id: 't-acme',
      name: 'te-acme/t-acme',
      label: 'Acme image',
      os: 'Ubuntu 22.04 (Acme)',
      account: 'te-acme',
    },
  ],
  networks: [
    {
      id: 'n-acme-ny',
      name: 'Acme East',
      region: 'East Coast (NY2)',
      network: '10.1.0.0',
      netmask: '255.255.255.0',
      account: 'te-acme',
    },
    // A /29 leaves five host addresses: small enough to run out of in a test.
    {
      id: 'n-acme-tiny',
      name: 'Acme Tiny',
      region: 'Europe (AMS1)',
      network: '10.2.0.0',
      netmask: '255.255.255.248',
      account: 'te-acme',
    },
    {
      id: 'n-other-ny',
      name: 'Other East',
      region: 'East Coast (NY2)',
      network: '10.3.0.0',
      netmask: '255.255.255.0',
      account: 'te-other',
    },
    {
      id: 'n-ivy-ca',
      name: 'Ivy West',
      region: 'West Coast (CA1)',
      network: '10.4.0.0',
      netmask: '255.255.255.0',
      account: 'u-ivy',
    },
  ],
  machines: [
    {
      id: 'ps-ivy-off',
      name: 'ivy-cpu',
      owner: 'u-ivy',
      templateId: 't-ubuntu',
      machineType: 'C4',
      region: 'East Coast (NY2)',
    },
    {
      id: 'ps-ivy-ready',
      name: 'ivy-gpu',
      owner: 'u-ivy',
      templateId: 't-win',
      machineType: 'P4000',
      region: 'West Coast (CA1)',
      state: 'ready',
      size: 250,
    },
    {
      id: 'ps-milo-off',
      name: 'milo-desktop',
      owner: 'u-milo',
      templateId: 't-desktop',
      machineType: 'P4000',
      region: 'East Coast (NY2)',
    },
    {
      id: 'ps-milo-up',
      name: 'milo-server',
      owner: 'u-milo',
      templateId: 't-ubuntu',
      machineType: 'C5',
      region: 'East Coast (NY2)',
      state: 'serviceready',
    },
    {
      id: 'ps-nora-off',
      name: 'nora-cpu',
      owner: 'u-nora',
      templateId: 't-ubuntu',
      machineType: 'C2',
      region: 'Europe (AMS1)',
    },
    {
      id: 'ps-alma-off',
      name: 'alma-cpu',
      owner: 'u-alma',
      templateId: 't-acme',
      machineType: 'C3',
      region: 'Europe (AMS1)',
    },
    {
      id: 'ps-otto-off',
      name: 'otto-cpu',
      owner: 'u-otto',
      templateId: 't-ubuntu',
      machineType: 'C2',
      region: 'East Coast (NY2)',
    },
  ],
  drives: [{ id: 'sd-acme', name: 'datasets', sizeGiB: 100, networkId: 'n-acme-ny' }],
};
