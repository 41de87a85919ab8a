// Filters of the lists the contract offers as one filtered GET: templates, users and networks.
import { z } from 'zod';
import { filterText, regionSchema } from './fields.js';

export const templateListFiltersSchema = z.strictObject({
  id: filterText(),
  name: filterText(),
  label: filterText(),
  os: filterText(),
  dtCreated: filterText(),
  teamId: filterText(),
  userId: filterText(),
  region: regionSchema.optional(),
});
export type TemplateListFilters = z.input<typeof templateListFiltersSchema>;

export const userListFiltersSchema = z.strictObject({
  id: filterText(),
  email: filterText(),
  firstname: filterText(),
  lastname: filterText(),
  dtCreated: filterText(),
  teamId: filterText(),
});
export type UserListFilters = z.input<typeof userListFiltersSchema>;

export const networkListFiltersSchema = z.strictObject({
  id: filterText(),
  name: filterText(),
  region: regionSchema.optional(),
  dtCreated: filterText(),
  network: filterText(),
  netmask: filterText(),
  teamId: filterText(),
});
export type NetworkListFilters = z.input<typeof networkListFiltersSchema>;
