// Scheduler commands: wait, share, shares, reminders.
import type { CommandHandlers } from '../../../slack/command-context.js';
import { shareCommand } from '../../shares/commands/share.js';
import { sharesCommand } from '../../shares/commands/shares.js';
import { waitCommand } from '../../watches/commands/wait.js';
import { remindCommand } from './remind.js';
import { remindOffCommand } from './remind-off.js';
import { remindersCommand } from './reminders.js';

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
