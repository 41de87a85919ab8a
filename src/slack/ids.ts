// Every identifier that Slack sends back to us: the slash command, action_ids, callback_ids of modals
// and of custom steps.
// They live here once so manifest.yml, the Block Kit builders and the listeners cannot drift apart
// (test/slack/manifest.test.ts checks the manifest and the registered listeners against this file).

export const SLASH_COMMAND = '/ps';

/** action_id of every interactive element the bot renders. */
export const ActionId = {
  login: 'login_open',
  machineStart: 'machine_start',
  machineStop: 'machine_stop',
  machineRestart: 'machine_restart',
  machineShare: 'machine_share',
  machineUsage: 'machine_usage',
  /** "This is mine" on a machine with no owner yet (v1): the clicker claims it; the value names it. */
  machineClaim: 'machine_claim',
  /** Overflow on a machine card; the option value says which of MachineOverflowOption. */
  machineOverflow: 'machine_overflow',
  /** Prev/Next on a paginated list; the button value carries the list kind, filters and page. */
  listPage: 'list_page',
  /** Delete on the confirmation of `/ps script delete`; the value is the script id. */
  scriptDelete: 'script_delete',
  /** Delete on the confirmation of `/ps drive delete`; the value is the shared drive id. */
  driveDelete: 'drive_delete',
  /** Share on the private confirmation of a share; the value carries the machine ids. */
  shareConfirm: 'share_confirm',
  shareCancel: 'share_cancel',
  /** End share on a share's channel post; the value is the share's id in the store. */
  shareEnd: 'share_end',
  /** Get access on a share's channel post: the clicker is made an accessor; the value is the share's id. */
  shareClaim: 'share_claim',
  reminderStop: 'reminder_stop',
  reminderSnooze: 'reminder_snooze',
  reminderKeep: 'reminder_keep',
  /** Stop all on a reminder too big for one message; the value carries every machine id it is about. */
  reminderStopAll: 'reminder_stop_all',
  /** "Send request" under a create Paperspace refused; the value carries the create parameters. */
  requestCreate: 'request_create',
  /** "Ask the owner" under a power click on someone else's machine; the value names machine and verb. */
  requestPower: 'request_power',
  /** Approve, Approve for N hours, Deny and Withdraw on a request; the value is the request id. */
  requestApprove: 'request_approve',
  requestApproveFor: 'request_approve_for',
  /** Approve and raise the budget on a request past a spent budget; the value names the request and cents. */
  requestApproveRaise: 'request_approve_raise',
  requestDeny: 'request_deny',
  requestWithdraw: 'request_withdraw',
  /** Stop on a row of the team digest; the value names the machine. */
  digestStop: 'digest_stop',
  /** Previous / Next under a page of /ps spend; the value names the billing month and the page. */
  spendPage: 'spend_page',
  /** Assign on a /ps spend row with no owner yet: opens the assign form; the value names the machine. */
  spendAssign: 'spend_assign',
  /** Stop, Keep running and Not this machine on a forgotten-machine alert; the value names the machine. */
  costAlertStop: 'cost_alert_stop',
  costAlertKeep: 'cost_alert_keep',
  costAlertNever: 'cost_alert_never',
  /** Stop all on an alert about several machines; the value names them, comma-separated. */
  costAlertStopAll: 'cost_alert_stop_all',
  /**
   * Keep running 4 h more and Stop now on a policy's warning (Keep running is also a card's Extend); an
   * administrator's Approve of a member's Keep running; an administrator's Stop with my key when the
   * owner's key could not stop it. The value names the machine, the rule and the stop it is about.
   */
  policyKeep: 'policy_keep_running',
  policyStopNow: 'policy_stop_now',
  policyApproveExtension: 'policy_extension_approve',
  policyStopWithMyKey: 'policy_stop_with_my_key',
  // A change Slackbot proposed, decided in the person's DM (features/slackbot).
  slackbotConfirm: 'slackbot_confirm',
  slackbotCancel: 'slackbot_cancel',
} as const;
export type ActionId = (typeof ActionId)[keyof typeof ActionId];

/** Option values of the machine card's overflow menu. */
export const MachineOverflowOption = {
  settings: 'settings',
  access: 'access',
  destroy: 'destroy',
  /** An administrator gives the machine to a teammate (v1, where the bot records owners). */
  assign: 'assign',
} as const;
export type MachineOverflowOption = (typeof MachineOverflowOption)[keyof typeof MachineOverflowOption];

/**
 * callback_id of every custom step (manifest.yml `functions`) Workflow Builder can run. Renaming one
 * breaks every workflow built with it: Slack stores the step by this id.
 */
export const StepCallbackId = {
  startMachine: 'start_machine',
  stopMachine: 'stop_machine',
  restartMachine: 'restart_machine',
  waitForState: 'wait_for_machine_state',
  requestMachine: 'request_machine',
} as const;
export type StepCallbackId = (typeof StepCallbackId)[keyof typeof StepCallbackId];

/** callback_id of every modal the bot opens. */
export const CallbackId = {
  login: 'login_modal',
  createMachine: 'create_machine_modal',
  updateMachine: 'update_machine_modal',
  destroyMachine: 'destroy_machine_modal',
  machineAccess: 'machine_access_modal',
  /** Assign from a card's menu: the teammate who is to own the machine. */
  assignMachine: 'assign_machine_modal',
  createScript: 'create_script_modal',
  createDrive: 'create_drive_modal',
  /** Deny on a request: the optional reason told to the requester. */
  denyRequest: 'deny_request_modal',
} as const;
export type CallbackId = (typeof CallbackId)[keyof typeof CallbackId];
