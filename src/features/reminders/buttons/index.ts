// Scheduler buttons: Stop, Snooze 1h and Keep running on a shutdown reminder, and Share on a card.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { shareButtonHandler } from '../../shares/buttons/share-button.js';
import { reminderKeepHandler } from './reminder-keep.js';
import { reminderSnoozeHandler } from './reminder-snooze.js';
import { reminderStopHandler } from './reminder-stop.js';

export function registerSchedulerActions(router: ListenerRouter, deps: ListenerDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.reminderStop, reminderStopHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.reminderSnooze, reminderSnoozeHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.reminderKeep, reminderKeepHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.machineShare, shareButtonHandler(deps));
}
