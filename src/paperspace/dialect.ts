// Which Paperspace API a base URL speaks, and what each one can do. Features branch on these
// capabilities where an API lacks something, never on the dialect itself.

/** `contract`: the legacy API (api.paperspace.io, X-Api-Key). `v1`: today's api.paperspace.com/v1. */
export type Dialect = 'contract' | 'v1';

export interface Capabilities {
  /** A script's text can be read back. */
  scriptText: boolean;
  /**
   * What a machine's accessor (a person given access with setMachineAccess, as a share does) may do
   * with it: `power`, start, stop and restart it too (v1); `use`, see and use it, while starting and
   * stopping stay with its owner (the contract).
   */
  accessorRights: 'power' | 'use';
  /** Who has explicit access to a machine can be listed (`machines.accessors`). */
  listAccessors: boolean;
  /** A start, stop or restart names the event that follows it, readable with `machines.event`. */
  followEvents: boolean;
  /** Usage comes from Paperspace's meter (`reported`) or is rebuilt from events (`estimated`). */
  utilization: 'reported' | 'estimated';
  /** The key says who it belongs to, so the login form needs no e-mail. */
  whoAmI: boolean;
  /** Shared drives need a separate access token (the contract's GraphQL). */
  driveAccessToken: boolean;
  /**
   * Where machine types come from: `fixed`, the contract's one list (constants.ts); `per template`,
   * each template's own (v1's availableMachineTypes, `Template.machineTypes`), which may name types
   * the contract never listed.
   */
  machineTypes: 'fixed' | 'per template';
}

export const CAPABILITIES: Record<Dialect, Capabilities> = {
  contract: {
    scriptText: true,
    accessorRights: 'use',
    listAccessors: false,
    followEvents: false,
    utilization: 'reported',
    whoAmI: false,
    driveAccessToken: true,
    machineTypes: 'fixed',
  },
  v1: {
    scriptText: false,
    accessorRights: 'power',
    listAccessors: true,
    followEvents: true,
    utilization: 'estimated',
    whoAmI: true,
    driveAccessToken: false,
    machineTypes: 'per template',
  },
};

/** A base URL whose path ends in `/v1` speaks v1; any other speaks the contract. */
export function dialectOf(baseUrl: string): Dialect {
  return /\/v1\/*$/.test(new URL(baseUrl).pathname) ? 'v1' : 'contract';
}
