// Shared drives as the world keeps them: only team administrators manage them; a drive takes a free
// address on a network of the team in its region and gives it back when deleted. GraphQL (the
// contract) and REST (v1) both go through here.
import type { Region } from '../../src/paperspace/constants.js';
import { isTeamAdmin } from './auth.js';
import { badRequest, forbidden, notFound } from './errors.js';
import { allocateAddress, freeAddressCount, releaseAddress } from './network-space.js';
import type { DriveRecord, UserRecord } from './records.js';
import type { EmulatorCore } from './world.js';

export function requireDriveAdmin(core: EmulatorCore, user: UserRecord): void {
  if (!isTeamAdmin(core, user)) throw forbidden('Only team administrators can manage shared drives');
}

export interface DriveRequest {
  readonly name: string;
  readonly sizeGiB: number;
  readonly region: Region;
  readonly networkId: string;
}

export function createDrive(core: EmulatorCore, user: UserRecord, request: DriveRequest): DriveRecord {
  requireDriveAdmin(core, user);
  if (request.name.trim() === '') throw badRequest('name must not be empty');
  if (!Number.isInteger(request.sizeGiB) || request.sizeGiB < 1) {
    throw badRequest(`size must be a whole number of GiB, got ${request.sizeGiB}`);
  }
  const network = core.world.networks.get(request.networkId);
  if (network?.accountId !== user.accountId) throw badRequest(`networkId: no network ${request.networkId}`);
  if (network.region !== request.region) {
    throw badRequest(`networkId: network ${network.id} is in ${network.region}, not ${request.region}`);
  }
  const ipAddress = freeAddressCount(network) > 0 ? allocateAddress(network) : null;
  if (ipAddress === null) throw badRequest(`networkId: network ${network.id} has no free IP space`);
  const drive: DriveRecord = {
    id: core.ids.next('sd'),
    name: request.name.trim(),
    sizeGiB: request.sizeGiB,
    region: request.region,
    networkId: network.id,
    accountId: user.accountId,
    ipAddress,
    username: core.ids.secret('u'),
    password: core.ids.secret('p'),
    dtCreated: core.now(),
  };
  core.world.drives.set(drive.id, drive);
  return drive;
}

/** A drive of the caller's team; other teams' drives answer 404 like missing ones. */
export function teamDrive(core: EmulatorCore, user: UserRecord, driveId: string): DriveRecord {
  requireDriveAdmin(core, user);
  const drive = core.world.drives.get(driveId);
  if (drive?.accountId !== user.accountId) throw notFound(`Shared drive ${driveId} not found`);
  return drive;
}

export function deleteDrive(core: EmulatorCore, user: UserRecord, driveId: string): DriveRecord {
  const drive = teamDrive(core, user, driveId);
  core.world.drives.delete(drive.id);
  const network = core.world.networks.get(drive.networkId);
  if (network) releaseAddress(network, drive.ipAddress);
  return drive;
}
