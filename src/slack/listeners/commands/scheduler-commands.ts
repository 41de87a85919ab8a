// Scheduler commands: wait, share, shares, reminders.
import type { CommandHandlers } from './command-context.js';
import { remindCommand } from './scheduler/remind.js';
import { remindOffCommand } from './scheduler/remind-off.js';
import { remindersCommand } from './scheduler/reminders.js';
import { shareCommand } from './scheduler/share.js';
import { sharesCommand } from './scheduler/shares.js';
import { waitCommand } from './scheduler/wait.js';

export const schedulerCommandHandlers: Pick<
  CommandHandlers,
  'wait' | 'share' | 'shares' | 'remind' | 'reminders' | 'remind off'
> = {
  wait: waitCommand,
  share: shareCommand,
  shares: sharesCommand,
  remind: remindCommand,
  reminders: remindersCommand,
  'remind off': remindOffCommand,
};
