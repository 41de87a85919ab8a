// The rest of the Paperspace account: lists with paging (machines, templates, users, networks,
// scripts, drives), GPU availability, and startup scripts and shared drives with their forms.
import type { Feature } from '../feature.js';
import { registerDeleteConfirmed } from './buttons/delete-confirmed.js';
import { registerListPage } from './buttons/list-page.js';
import { catalogCommandHandlers } from './commands/index.js';
import { registerDriveCreateSubmission } from './modals/drive-create-submission.js';
import { registerScriptCreateSubmission } from './modals/script-create-submission.js';

export const catalogFeature: Feature<keyof typeof catalogCommandHandlers> = {
  commands: catalogCommandHandlers,
  listen(router, deps) {
    registerListPage(router, deps);
    registerDeleteConfirmed(router, deps);
    registerScriptCreateSubmission(router, deps);
    registerDriveCreateSubmission(router, deps);
  },
};
