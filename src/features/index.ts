// The bot's features plugged into Slack and the scheduler: their operations make up `/ps` (catalogue.ts),
// their listeners sit behind the router, and their jobs run on the scheduler's tick in the features'
// order. The manifest test checks the ids registered here against manifest.yml and src/slack/ids.ts.
import type { App } from '@slack/bolt';
import { DEFAULT_POLL_CONCURRENCY, DEFAULT_RETENTION, type SlackPacing } from '../config.js';
import { type CronEngine, createNodeCronEngine } from '../scheduler/cron-engine.js';
import { NO_OBSERVER, type SchedulerJob, type SchedulerObserver } from '../scheduler/job.js';
import {
  createScheduler,
  newReplicaId,
  realTimers,
  type Scheduler,
  type SchedulerTimers,
} from '../scheduler/scheduler.js';
import { type ChannelPacer, createChannelPacer } from '../slack/channel-pacer.js';
import type { McpToolHost } from '../slack/mcp/mcp-endpoint.js';
import type { SlackbotWorkspace } from '../slack/mcp/slackbot-workspaces.js';
import type { Operation } from '../slack/operation.js';
import type { PlatformDeps } from '../slack/platform-deps.js';
import { registerPsCommand } from '../slack/ps-command.js';
import { createListenerRouter, type ListenerRouter } from '../slack/router.js';
import { commands, features, rowFinishers } from './catalogue.js';
import type { Feature, FrontDoor } from './feature.js';
import { type ListenerWiring, narrowDeps } from './feature-deps.js';
import { handOut, type JobResources } from './job-needs.js';
import { slackbotNeeds } from './slackbot/slackbot-deps.js';
import { slackbotTools } from './slackbot/tool-calls.js';
import { createRowRedraw } from './watches/row-messages.js';

const allFeatures: readonly Feature[] = features;

const NO_NEEDS = { ports: [], services: [] } as const;

/** What the platform's listeners get from the wiring: no repository, no shared service. */
function platformOf(wiring: ListenerWiring): PlatformDeps {
  const { clients, logger, pacer } = wiring;
  return { clients, logger, pacer };
}

/**
 * Each feature's listeners and operations get the deps its `needs` declares, picked from the wiring at
 * run time: a repository the feature did not declare is not in the object it is handed.
 */
export function registerListeners(router: ListenerRouter, wiring: ListenerWiring): void {
  const { featureDeps, door } = frontDoorOf(wiring);
  registerPsCommand(router, platformOf(wiring), commands, door.depsOf);
  for (const { feature, deps } of featureDeps) feature.listen?.(router, deps, door);
}

/** Each feature with its deps, and the front door that runs every feature's operations with its own. */
function frontDoorOf(wiring: ListenerWiring) {
  const featureDeps = allFeatures.map((feature) => ({
    feature,
    deps: narrowDeps(wiring, feature.needs ?? NO_NEEDS),
  }));
  const operationDeps = new Map<Operation, PlatformDeps>(
    featureDeps.flatMap(({ feature, deps }) =>
      (feature.operations ?? []).map((operation) => [operation, deps]),
    ),
  );
  const door: FrontDoor = {
    operations: commands.commands,
    depsOf: (operation) => {
      const deps = operationDeps.get(operation);
      // The parser reads only the features' own operations; another would be a bug in the catalogue.
      if (deps === undefined) throw new Error(`No feature owns the operation "${operation.name}"`);
      return deps;
    },
  };
  return { featureDeps, door };
}

/** The tools Slackbot's MCP client is offered at /mcp, run with the features' own deps. */
export function slackbotHost(wiring: ListenerWiring, workspaceOf: SlackbotWorkspace): McpToolHost {
  return slackbotTools(narrowDeps(wiring, slackbotNeeds), frontDoorOf(wiring).door, workspaceOf);
}

/** Gives `app` the bot's listeners, behind one dispatching listener per surface (slack/router.ts). */
export function attachListeners(app: App, wiring: ListenerWiring): void {
  registerListeners(createListenerRouter(app, platformOf(wiring)), wiring);
}

/**
 * The scheduler's jobs, every feature's (`of`, the features above by default), in their order, given
 * every feature's machine checks. Each feature's jobs and checks are handed what they declared they
 * use and nothing more (job-needs.ts): no job holds the whole store.
 */
export function featureJobs(
  resources: Omit<JobResources, 'machineChecks'>,
  of: readonly Feature[] = allFeatures,
): SchedulerJob[] {
  const machineChecks = of.flatMap(
    (feature) => feature.machineChecks?.build(handOut(resources, feature.machineChecks.needs)) ?? [],
  );
  const withChecks = { ...resources, machineChecks };
  return of.flatMap((feature) => feature.jobs?.build(handOut(withChecks, feature.jobs.needs)) ?? []);
}

export interface BotSchedulerOptions
  extends Omit<
    JobResources,
    'replicaId' | 'observer' | 'cron' | 'pollConcurrency' | 'retention' | 'pacer' | 'spread' | 'machineChecks'
  > {
  /** DEFAULT_POLL_CONCURRENCY by default. */
  pollConcurrency?: number;
  /** DEFAULT_RETENTION by default. */
  retention?: JobResources['retention'];
  /** Real intervals by default; tests pass manualTimers and call tick(). */
  timers?: SchedulerTimers;
  /** node-cron by default. */
  cron?: CronEngine;
  /** Unique per process by default. */
  replicaId?: string;
  observer?: SchedulerObserver;
  /** The bot's channel pacer, which its listeners share (bot.ts); without it, one built from `slackPacing`. */
  pacer?: ChannelPacer;
  /**
   * SLACK_PACING by default; null for a Slack stand-in that imposes no limits and a test clock that
   * real waits would not move. Used only when no `pacer` is given.
   */
  slackPacing?: SlackPacing | null;
}

/** The pacer's options for a bot's `slackPacing`: unset keeps Slack's own pace. */
export function pacingOf(options: { slackPacing?: SlackPacing | null }) {
  return options.slackPacing === undefined ? {} : { pacing: options.slackPacing };
}

/** The scheduler engine running every feature's jobs, as the bot (and a test standing in for it) runs it. */
export function createBotScheduler(options: BotSchedulerOptions): Scheduler {
  const replicaId = options.replicaId ?? newReplicaId();
  const observer = options.observer ?? NO_OBSERVER;
  const cron = options.cron ?? createNodeCronEngine(options.logger);
  const timers = options.timers ?? realTimers;
  return createScheduler({
    jobs: featureJobs({
      store: options.store,
      vault: options.vault,
      clients: options.clients,
      slack: options.slack,
      logger: options.logger,
      now: options.now,
      pollIntervalMs: options.pollIntervalMs,
      replicaId,
      observer,
      cron,
      pollConcurrency: options.pollConcurrency ?? DEFAULT_POLL_CONCURRENCY,
      retention: options.retention ?? DEFAULT_RETENTION,
      pacer: options.pacer ?? createChannelPacer(pacingOf(options)),
      ...(timers.spread === undefined ? {} : { spread: timers.spread }),
    }),
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    replicaId,
    observer,
    timers,
  });
}

/**
 * ListenerServices.redrawRow: ends the row of a reminder, alert or digest whose Stop's watch a newer
 * operation took over, drawn by the feature the message belongs to.
 */
export function rowRedrawOf(
  deps: Pick<ListenerWiring, 'store' | 'pacer' | 'logger' | 'now'>,
): ListenerWiring['redrawRow'] {
  const redraw = createRowRedraw({ ...deps, finishers: rowFinishers });
  return (web, watch, line) => redraw(web, watch, line, false);
}
