// The one interface through which a feature plugs into the bot: the operations it answers (on `/ps`
// and any other front door), the buttons, modals and events it listens to, and the jobs it gives the
// scheduler. features/index.ts lists the features; nothing else needs to know what a feature contains.
import type { PersonMachineCheck, SchedulerJob } from '../scheduler/job.js';
import type { Operation } from '../slack/operation.js';
import type { PlatformDeps } from '../slack/platform-deps.js';
import type { ListenerRouter } from '../slack/router.js';
import type { DepsOf, FeatureNeeds } from './feature-deps.js';
import type { CheckResource, JobPlan } from './job-needs.js';

/** Every operation of the catalogue, and the deps of the feature that owns each: what a front door runs. */
export interface FrontDoor {
  readonly operations: readonly Operation[];
  depsOf(operation: Operation): PlatformDeps;
}

export interface Feature<Needs extends FeatureNeeds = FeatureNeeds> {
  /**
   * The repositories and shared services its listeners and operations use: all of the store and the
   * services they are handed (none when it declares nothing).
   */
  readonly needs?: Needs;
  /** The operations this feature owns, each with its grammar, help, parameters and handler. */
  readonly operations?: readonly Operation<string, unknown, DepsOf<Needs>>[];
  /**
   * Registers its buttons, modals and events (by action_id, callback_id or event name). `door` is every
   * feature's operations, for a front door that runs them (Slackbot's confirmations).
   */
  listen?(router: ListenerRouter, deps: DepsOf<Needs>, door: FrontDoor): void;
  /** What the scheduler runs for it, in order, on every tick, built from what they declare they use. */
  jobs?: JobPlan<SchedulerJob>;
  /** What it does with each leased person's machines, as the tick lists them (no list call of its own). */
  machineChecks?: JobPlan<PersonMachineCheck, CheckResource>;
}
