// Share on a machine card: the same private confirmation as `/ps share`, for the card's machine, in
// the card's channel. The clicker's key must see the machine.

import { machineButtonHandler } from '../../machines/machine-button.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { offerShare } from '../share-offer.js';
import type { SharesDeps } from '../shares-deps.js';

export function shareButtonHandler(deps: SharesDeps) {
  return machineButtonHandler(deps, async (click) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const machine = await findMachine(paperspace, click.machine.id);
    await offerShare(click, deps, [machine]);
  });
}
