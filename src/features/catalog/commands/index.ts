// Catalogue commands: lists (machines, scripts, templates, users, networks, drives) with paging,
// availability, script and drive changes.

import type { CommandHandlers } from '../../../slack/command-context.js';
import { availabilityCommand } from './availability.js';
import { driveCreateCommand, driveDeleteCommand } from './drives.js';
import {
  drivesCommand,
  listCommand,
  networksCommand,
  scriptsCommand,
  templatesCommand,
  usersCommand,
} from './lists.js';
import { scriptCreateCommand, scriptDeleteCommand, scriptShowCommand, scriptTextCommand } from './scripts.js';

export const catalogCommandHandlers: Pick<
  CommandHandlers,
  | 'list'
  | 'availability'
  | 'scripts'
  | 'script show'
  | 'script text'
  | 'script delete'
  | 'script create'
  | 'templates'
  | 'users'
  | 'networks'
  | 'drives'
  | 'drive create'
  | 'drive delete'
> = {
  scripts: scriptsCommand,
  'script show': scriptShowCommand,
  'script text': scriptTextCommand,
  'script delete': scriptDeleteCommand,
  'script create': scriptCreateCommand,
  templates: templatesCommand,
  users: usersCommand,
  networks: networksCommand,
  drives: drivesCommand,
  'drive create': driveCreateCommand,
  'drive delete': driveDeleteCommand,
  list: listCommand,
  availability: availabilityCommand,
};
