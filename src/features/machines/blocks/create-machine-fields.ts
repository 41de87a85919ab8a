// Addresses of the create-machine form: the builder renders these fields, the submission reader
// reads them, and the view handler keys field errors by their block ids.
import { field } from '../../../slack/block-kit/modal-kit.js';

export const CreateMachineFields = {
  region: field('region'),
  machineType: field('machine_type'),
  template: field('template'),
  size: field('size'),
  machineName: field('machine_name'),
  network: field('network'),
  script: field('script'),
  publicIp: field('public_ip'),
  startOnCreate: field('start_on_create'),
  existingUser: field('user_id'),
  newUserEmail: field('new_user_email'),
  newUserPassword: field('new_user_password'),
  newUserFirstName: field('new_user_first_name'),
  newUserLastName: field('new_user_last_name'),
  snapshot: field('snapshot'),
  nvlink: field('nvlink'),
  notificationEmail: field('notification_email'),
} as const;

/** Option values of the public IP radio group and of the checkbox groups. */
export const CreateMachineOptions = {
  publicIpNone: 'none',
  publicIpStatic: 'static',
  publicIpDynamic: 'dynamic',
  startOnCreate: 'start',
  takeInitialSnapshot: 'take_initial_snapshot',
  markAsRestorePoint: 'mark_restore_point',
  enableNvlink: 'enable_nvlink',
} as const;
