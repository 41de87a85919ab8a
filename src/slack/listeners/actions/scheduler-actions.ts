// Scheduler buttons: Stop, Snooze 1h and Keep running on a shutdown reminder, and Share on a card.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../ids.js';
import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { reminderKeepHandler } from './scheduler/reminder-keep.js';
import { reminderSnoozeHandler } from './scheduler/reminder-snooze.js';
import { reminderStopHandler } from './scheduler/reminder-stop.js';
import { shareButtonHandler } from './scheduler/share-button.js';

export function registerSchedulerActions(router: ListenerRouter, deps: ListenerDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.reminderStop, reminderStopHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.reminderSnooze, reminderSnoozeHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.reminderKeep, reminderKeepHandler(deps));
  router.action<BlockAction<ButtonAction>>(ActionId.machineShare, shareButtonHandler(deps));
}
