// Every feature of the bot, and the catalogue of their operations: what `/ps` reads, what `/ps help`
// lists, and what any other front door offers. The lower features do some of their work through the
// higher ones (the feature order is in .dependency-cruiser.cjs): it is handed to them here, where every
// feature is in view.
import { type CommandParser, createCommandParser } from '../slack/command-language/command-parser.js';
import type { CommandOf, Operation } from '../slack/operation.js';
import { createAccountFeature } from './account/index.js';
import { offerCreateRequest, requestCreateInstead } from './approvals/create-route.js';
import { createApprovalsFeature } from './approvals/index.js';
import { offerPowerRequest, routePowerToOwner } from './approvals/owner-route.js';
import { createBudgetsFeature } from './budgets/index.js';
import { catalogFeature } from './catalog/index.js';
import { pageFor } from './catalog/list-message.js';
import { alertRowFinished } from './cost-alerts/buttons/alert-message.js';
import { costAlertsFeature } from './cost-alerts/index.js';
import type { Feature } from './feature.js';
import { homeFeature } from './home/index.js';
import { publishHome } from './home/publish-home.js';
import { createMachinesFeature } from './machines/index.js';
import { cardLeases } from './policies/card-leases.js';
import { policiesFeature } from './policies/index.js';
import { reminderRowFinished } from './reminders/buttons/reminder-row.js';
import { remindersFeature } from './reminders/index.js';
import { retentionFeature } from './retention/index.js';
import { sharesFeature } from './shares/index.js';
import { slackbotFeature } from './slackbot/index.js';
import { digestRowFinished } from './spend/buttons/digest-row.js';
import { spendFeature } from './spend/index.js';
import { unfurlsFeature } from './unfurls/index.js';
import { createWatchesFeature } from './watches/index.js';
import type { RowFinishers } from './watches/row-messages.js';
import { workflowStepsFeature } from './workflow-steps/index.js';
import { completeRequestStep } from './workflow-steps/request-completion.js';

/** How the reminders, cost alerts and team digests redraw a row of theirs once its watch ends. */
export const rowFinishers: RowFinishers = {
  reminder: reminderRowFinished,
  cost_alert: alertRowFinished,
  digest: digestRowFinished,
};

const accountFeature = createAccountFeature(() => commands);
const machinesFeature = createMachinesFeature({
  requests: { routePowerToOwner, offerPowerRequest, offerCreateRequest, requestCreateInstead },
  leases: cardLeases,
  refreshHome: publishHome,
  listPage: pageFor,
});
const watchesFeature = createWatchesFeature(publishHome, rowFinishers);
const approvalsFeature = createApprovalsFeature(completeRequestStep);

/** Every feature; their jobs run on the scheduler's tick in this order. */
export const features = [
  accountFeature,
  homeFeature,
  catalogFeature,
  machinesFeature,
  remindersFeature,
  watchesFeature,
  sharesFeature,
  approvalsFeature,
  spendFeature,
  costAlertsFeature,
  createBudgetsFeature(),
  policiesFeature,
  retentionFeature,
  workflowStepsFeature,
  unfurlsFeature,
  slackbotFeature,
] as const;

type FeatureOperation = (typeof features)[number] extends infer F
  ? F extends { operations: readonly (infer O)[] }
    ? O
    : never
  : never;

/** A command as read from `/ps` text: its name with its parameters. */
export type Command = CommandOf<FeatureOperation>;
export type CommandName = Command['name'];

// The order of `/ps help` and of every command list: by what people come to do, not by feature. Keyed
// by every command name, so a command missing here (or named here without an operation) does not compile.
const HELP_ORDER = {
  help: true,
  login: true,
  logout: true,
  whoami: true,
  list: true,
  show: true,
  start: true,
  stop: true,
  restart: true,
  wait: true,
  create: true,
  update: true,
  destroy: true,
  access: true,
  usage: true,
  claim: true,
  assign: true,
  availability: true,
  scripts: true,
  'script show': true,
  'script text': true,
  'script delete': true,
  'script create': true,
  templates: true,
  users: true,
  networks: true,
  drives: true,
  'drive create': true,
  'drive delete': true,
  share: true,
  shares: true,
  remind: true,
  reminders: true,
  'remind off': true,
  approvals: true,
  requests: true,
  spend: true,
  digest: true,
  'digest off': true,
  alerts: true,
  budget: true,
  policy: true,
  'policy max-run': true,
  'policy off-hours': true,
  'policy exempt': true,
  'policy idle': true,
  'policy off': true,
  steps: true,
} as const satisfies Record<CommandName, true>;

function inHelpOrder(operations: readonly Operation[]): Operation[] {
  const byName = new Map(operations.map((operation) => [operation.name, operation]));
  return Object.keys(HELP_ORDER).map((name) => {
    const operation = byName.get(name);
    if (operation === undefined) throw new Error(`No feature defines the command "${name}"`);
    return operation;
  });
}

const operations = inHelpOrder(
  features.flatMap((feature: Feature): readonly Operation[] => feature.operations ?? []),
);
const list = operations.find((operation) => operation.name === 'list');

/** Every `/ps` command, read by one parser driven by the features' definitions. */
export const commands: CommandParser<Operation> = createCommandParser(operations, {
  help: 'help',
  keyValueHint: `To filter machines, use ${list?.usage ?? 'list'}.`,
});
