// The rest of the Paperspace account: lists with paging (machines, templates, users, networks,
// scripts, drives), GPU availability, and startup scripts and shared drives with their forms.
import type { Feature } from '../feature.js';
import { registerDeleteConfirmed } from './buttons/delete-confirmed.js';
import { registerListPage } from './buttons/list-page.js';
import { catalogNeeds } from './catalog-deps.js';
import { availabilityOperation } from './commands/availability.js';
import { driveCreateOperation, driveDeleteOperation } from './commands/drives.js';
import {
  drivesOperation,
  listOperation,
  networksOperation,
  scriptsOperation,
  templatesOperation,
  usersOperation,
} from './commands/lists.js';
import {
  scriptCreateOperation,
  scriptDeleteOperation,
  scriptShowOperation,
  scriptTextOperation,
} from './commands/scripts.js';
import { registerDriveCreateSubmission } from './modals/drive-create-submission.js';
import { registerScriptCreateSubmission } from './modals/script-create-submission.js';

export const catalogFeature = {
  needs: catalogNeeds,
  operations: [
    listOperation,
    availabilityOperation,
    scriptsOperation,
    scriptShowOperation,
    scriptTextOperation,
    scriptDeleteOperation,
    scriptCreateOperation,
    templatesOperation,
    usersOperation,
    networksOperation,
    drivesOperation,
    driveCreateOperation,
    driveDeleteOperation,
  ],
  listen(router, deps) {
    registerListPage(router, deps);
    registerDeleteConfirmed(router, deps);
    registerScriptCreateSubmission(router, deps);
    registerDriveCreateSubmission(router, deps);
  },
} as const satisfies Feature<typeof catalogNeeds>;
