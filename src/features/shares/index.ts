// Sharing machines in a channel: `/ps share`, `/ps shares`, Share on a card, and the job that marks a
// share's post expired.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { shareButtonHandler } from './buttons/share-button.js';
import { shareCommand } from './commands/share.js';
import { sharesCommand } from './commands/shares.js';
import { shareJobs } from './jobs.js';

export const sharesFeature: Feature<'share' | 'shares'> = {
  commands: { share: shareCommand, shares: sharesCommand },
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.machineShare, shareButtonHandler(deps));
  },
  jobs: shareJobs,
};
