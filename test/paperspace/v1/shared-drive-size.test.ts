// v1 creates a shared drive with its size "in gigabytes" and reads it back as an int64 with no unit
// (docs/units.md): the drives list must show 100 GiB either way, never 0 GiB or 100 bytes.
import { describe, expect, it } from 'vitest';
import { sharedDriveFromV1 } from '../../../src/paperspace/v1/mapping.js';
import { formatGiB } from '../../../src/slack/block-kit/format.js';

const GIB = 1024 ** 3;
const drive = (size: number) =>
  sharedDriveFromV1({
    id: 'sd1a2b3c',
    name: 'datasets',
    size,
    mountPoint: '\\\\10.0.0.5\\datasets',
    region: 'East Coast (NY2)',
    networkId: 'n1a2b3c',
    dtCreated: '2026-11-01T00:00:00Z',
  } as Parameters<typeof sharedDriveFromV1>[0]);

describe('a v1 shared drive read back', () => {
  it('reads a size given in bytes as bytes', () => {
    expect(formatGiB(drive(100 * GIB).size ?? 0)).toBe(formatGiB(100 * GIB));
  });

  it('reads a size too small to be bytes of a drive as the gigabytes it was created with', () => {
    expect(drive(100).size).toBe(100 * GIB);
  });
});
