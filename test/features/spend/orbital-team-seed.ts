// The demo world grown to a team at size: Orbital's members beyond Maya and Sam, and running C4
// machines for whoever owns them. Reports (spend, the digest) are measured against it.
import { DEMO_SEED, type SeedInput } from '../../../tools/emulator/index.js';

/** The Paperspace id of the `index`th extra member: u1mate000, u1mate001, … */
export const teammateId = (index: number) => `u1mate${String(index).padStart(3, '0')}`;

/** `count` more members of Orbital's team, each with an API key of their own when `withKeys`. */
export function orbitalTeammates(count: number, { withKeys = false } = {}) {
  return Array.from({ length: count }, (_, index) => ({
    id: teammateId(index),
    email: `mate${index}@orbital.example`,
    firstname: 'Mate',
    lastname: `Number ${index}`,
    team: 'te1orbit',
    role: 'member' as const,
    ...(withKeys ? { apiKey: `mate-key-${String(index).padStart(3, '0')}` } : {}),
  }));
}

/** A C4 machine running in NY2 from the demo template. */
export const runningMachine = (id: string, name: string, owner: string) => ({
  id,
  name,
  owner,
  templateId: 't04azgph',
  machineType: 'C4' as const,
  region: 'East Coast (NY2)' as const,
  state: 'ready' as const,
});

/** The demo seed with these users and machines added to its own. */
export function withTeam(
  users: ReturnType<typeof orbitalTeammates>,
  machines: ReturnType<typeof runningMachine>[],
): SeedInput {
  return {
    ...DEMO_SEED,
    users: [...(DEMO_SEED.users ?? []), ...users],
    machines: [...(DEMO_SEED.machines ?? []), ...machines],
  };
}
