// `<machine>` in a command is an id or a name. Names are what people type, but they are not unique,
// so a name must match exactly one machine the user's key can see; otherwise the answer names the
// candidates instead of guessing.

import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import { closestMatch } from '../../slack/command-language/closest-match.js';

const MAX_LISTED_CANDIDATES = 5;

export async function findMachine(client: PaperspaceClient, reference: string): Promise<Machine> {
  const byId = await client.machines.list({ machineId: reference });
  if (byId.length === 1 && byId[0]) return byId[0];

  const byName = await client.machines.list({ name: reference });
  const exact = pickOne(byName, reference);
  if (exact) return exact;

  // People type "gpu-1" for "GPU-1": fall back to a case-insensitive match over everything visible.
  const wanted = reference.toLocaleLowerCase();
  const visible: Machine[] = [];
  for await (const machine of client.machines.listAll()) visible.push(machine);
  const match = pickOne(
    visible.filter((machine) => machine.name.toLocaleLowerCase() === wanted),
    reference,
  );
  if (match) return match;
  const similar = similarMachines(visible, reference);
  if (similar.length > 0) {
    const shown = similar.slice(0, MAX_LISTED_CANDIDATES);
    // An id only tells apart machines that share a name; otherwise the name is all a person needs.
    const shared = (name: string) => shown.filter((machine) => machine.name === name).length > 1;
    const names = shown.map((machine) =>
      shared(machine.name) ? `${machine.name} (${machine.id})` : machine.name,
    );
    const more =
      similar.length > MAX_LISTED_CANDIDATES ? `, and ${similar.length - MAX_LISTED_CANDIDATES} more` : '';
    throw new UserFacingError(
      `No machine is called "${reference}". Did you mean ${names.join(', ')}${more}? Give its full name or id.`,
    );
  }
  throw new UserFacingError(
    `No machine called "${reference}" is visible to your Paperspace key. \`/ps list\` shows the ones it can see.`,
  );
}

/**
 * The machines a person probably meant by a name that matched none: those whose name contains what
 * they typed ("sam" -> "sam-gpu", "sam-notebook"), else the one name a typo away ("gpu-l" -> "gpu-1").
 */
function similarMachines(machines: readonly Machine[], reference: string): Machine[] {
  const containing = machinesContaining(machines, reference);
  if (containing.length > 0) return containing;
  const closest = closestMatch(
    reference,
    machines.map((machine) => machine.name),
  );
  return machines.filter((machine) => machine.name === closest);
}

function machinesContaining(machines: readonly Machine[], reference: string): Machine[] {
  const wanted = reference.toLocaleLowerCase();
  return machines
    .filter((machine) => machine.name.toLocaleLowerCase().includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function pickOne(candidates: Machine[], reference: string): Machine | undefined {
  if (candidates.length === 0) return undefined;
  if (candidates.length === 1) return candidates[0];
  const listed = candidates
    .slice(0, MAX_LISTED_CANDIDATES)
    .map((machine) => `${machine.name} (${machine.id})`)
    .join(', ');
  throw new UserFacingError(
    `"${reference}" matches ${candidates.length} machines: ${listed}. Use the machine id instead.`,
  );
}
