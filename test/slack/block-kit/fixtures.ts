// Realistic API objects for builder tests, shaped like the contract's examples.
import type { Machine } from '../../../src/paperspace/schemas.js';

export function machineFixture(overrides: Partial<Machine> = {}): Machine {
  return {
    id: 'psz9xmdl1',
    name: 'gpu-1',
    os: 'Ubuntu 20.04.6 LTS',
    ram: '32212254720',
    cpus: 8,
    gpu: 'Quadro P5000',
    storageTotal: '53687091200',
    storageUsed: '21474836480',
    machineType: 'P5000',
    usageRate: 'P5000 hourly',
    shutdownTimeoutInHours: 2,
    shutdownTimeoutForces: false,
    performAutoSnapshot: true,
    autoSnapshotFrequency: 'day',
    autoSnapshotSaveCount: 3,
    dynamicPublicIp: false,
    agentType: 'LinuxDesktop',
    dtCreated: '2024-03-01T09:15:00.000Z',
    state: 'ready',
    updatesPending: false,
    networkId: null,
    privateIpAddress: '10.64.21.3',
    publicIpAddress: '184.105.1.20',
    region: 'East Coast (NY2)',
    scriptId: null,
    dtLastRun: null,
    internalId: 4231,
    ...overrides,
  };
}

/** `count` distinct machines with predictable ids and names. */
export function machinesFixture(count: number): Machine[] {
  return Array.from({ length: count }, (_, i) =>
    machineFixture({
      id: `ps${String(i).padStart(6, '0')}`,
      name: `machine-${i}`,
      state: i % 2 ? 'off' : 'ready',
    }),
  );
}

/** The strings a card must never turn into a live mention or link. */
export const MALICIOUS_NAME = '<!channel> & <@U1> <https://evil.example|click>';
