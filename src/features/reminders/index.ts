// Shutdown reminders: `/ps remind`, `/ps reminders`, `/ps remind off`, the reminder's Stop, Snooze 1h
// and Keep running buttons (Stop all on one too big for a message), and the cron and snooze jobs
// that send them.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { reminderKeepHandler } from './buttons/reminder-keep.js';
import { reminderSnoozeHandler } from './buttons/reminder-snooze.js';
import { reminderStopHandler } from './buttons/reminder-stop.js';
import { reminderStopAllHandler } from './buttons/reminder-stop-all.js';
import { remindOperation } from './commands/remind.js';
import { remindOffOperation } from './commands/remind-off.js';
import { remindersOperation } from './commands/reminders.js';
import { reminderJobPlan } from './jobs.js';
import { remindersNeeds } from './reminders-deps.js';

export const remindersFeature = {
  needs: remindersNeeds,
  operations: [remindOperation, remindersOperation, remindOffOperation],
  listen(router, deps) {
    router.action<BlockAction<ButtonAction>>(ActionId.reminderStop, reminderStopHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.reminderSnooze, reminderSnoozeHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.reminderKeep, reminderKeepHandler(deps));
    router.action<BlockAction<ButtonAction>>(ActionId.reminderStopAll, reminderStopAllHandler(deps));
  },
  jobs: reminderJobPlan,
} as const satisfies Feature<typeof remindersNeeds>;
