// Sharing machines in a channel: `/ps share`, `/ps shares`, Share on a card, the confirmation's
// Share and Cancel, Get access on the post, End share (in the sharer's note and `/ps shares`), and the
// job that removes the access and marks a share's post expired.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { shareButtonHandler } from './buttons/share-button.js';
import { shareCancelHandler } from './buttons/share-cancel.js';
import { shareClaimHandler } from './buttons/share-claim.js';
import { shareConfirmHandler } from './buttons/share-confirm.js';
import { shareEndHandler } from './buttons/share-end.js';
import { shareOperation } from './commands/share.js';
import { sharesOperation } from './commands/shares.js';
import { shareJobPlan } from './jobs.js';
import { sharesNeeds } from './shares-deps.js';

export const sharesFeature = {
  needs: sharesNeeds,
  operations: [shareOperation, sharesOperation],
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.machineShare, shareButtonHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.shareConfirm, shareConfirmHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.shareCancel, shareCancelHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.shareEnd, shareEndHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.shareClaim, shareClaimHandler(deps));
  },
  jobs: shareJobPlan,
} as const satisfies Feature<typeof sharesNeeds>;
