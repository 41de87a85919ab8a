// Whether the person looking at a machine can power it: Paperspace lets only a machine's owner start,
// stop or restart it. A key with no known account, or a machine that does not say who owns it (API v1
// machines carry no owner), counts as operable: Paperspace then decides, and the click says why.
import type { Machine } from '../../paperspace/schemas.js';
import { ownerIdOf } from '../approvals/approvers.js';

/** `viewerPaperspaceId`: the Paperspace user id of the viewer's linked key. */
export function operableBy(viewerPaperspaceId: string | undefined): (machine: Machine) => boolean {
  return (machine) => {
    const owner = ownerIdOf(machine);
    return viewerPaperspaceId === undefined || owner === undefined || owner === viewerPaperspaceId;
  };
}
