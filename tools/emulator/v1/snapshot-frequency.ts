// v1 spells auto-snapshot frequencies hourly, daily, weekly and monthly (the OpenAPI's enum on create
// and update); the world keeps the contract's hour, day and week. Requests are checked against v1's
// words, and views answer in them, so a client that sends the contract's words is refused as the real
// v1 would refuse it.
import { z } from 'zod';
import type { AutoSnapshotFrequency } from '../../../src/paperspace/constants.js';
import { badRequest } from '../errors.js';

export const v1SnapshotFrequencySchema = z.enum(['hourly', 'daily', 'weekly', 'monthly']);
type V1SnapshotFrequency = z.infer<typeof v1SnapshotFrequencySchema>;

const TO_WORLD: Readonly<Record<Exclude<V1SnapshotFrequency, 'monthly'>, AutoSnapshotFrequency>> = {
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
};

export function snapshotFrequencyToWorld(value: V1SnapshotFrequency): AutoSnapshotFrequency {
  // Monthly is valid v1; the world (shared with the contract, which has no month) cannot hold it.
  if (value === 'monthly') throw badRequest('autoSnapshotFrequency: monthly is not modelled by the emulator');
  return TO_WORLD[value];
}

export function snapshotFrequencyToV1(value: AutoSnapshotFrequency | null): V1SnapshotFrequency | null {
  if (value === null) return null;
  return (Object.entries(TO_WORLD).find(([, world]) => world === value)?.[0] as V1SnapshotFrequency) ?? null;
}
