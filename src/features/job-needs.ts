// What a feature's scheduler work is built from. The bot holds one set of everything a job could use
// (JobResources: the engine's deps, the store's repositories, the vault, the Paperspace clients, Slack);
// each feature's jobs and machine checks declare the part they use (JobNeeds), and the wiring
// (features/index.ts) hands them that part alone. At run time too: the object they get holds only the
// keys they named, its store only the repositories they named, so a job cannot reach one it did not
// declare, and the declaration reads as the list of what the job touches.
import type { RetentionConfig } from '../config.js';
import type { JobDeps, PersonMachineCheck, WorkspaceSlack } from '../scheduler/job.js';
import type { ChannelPacer } from '../slack/channel-pacer.js';
import type { Store } from '../store/store.js';
import type { KeyVault } from '../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../vault/paperspace-clients.js';

/** Everything the bot can give its features' jobs; each is handed only what its JobNeeds names. */
export interface JobResources extends JobDeps {
  store: Store;
  /**
   * `maskedKey` for the App Home, which a finished watch refreshes; `credentials` for the watch poller,
   * which keeps a person's opened key between polls (features/watches/person-keys.ts).
   */
  vault: Pick<KeyVault, 'account' | 'maskedKey' | 'credentials'>;
  clients: PaperspaceClientFactory;
  /** Each workspace's Web API client: every post a job makes goes out with the token of its workspace. */
  slack: WorkspaceSlack;
  /**
   * The bot's one channel pacer, the listeners' too (PlatformDeps.pacer): a job's posts in a channel
   * take their turns with the cards listeners post there, at Slack's pace and in order.
   */
  pacer: ChannelPacer;
  /** How long audit records and expired delegations are kept. */
  retention: RetentionConfig;
  /** Every feature's checks of a person's machines, run after the tick lists them (features/index.ts). */
  machineChecks: readonly PersonMachineCheck[];
}

/** A repository of the store. Its other members (the dialect, ping, close) are the bot's, not a job's. */
type Repository = Exclude<keyof Store, 'dialect' | 'ping' | 'close'>;
/** What else a job may be handed, by name. */
export type JobResource = Exclude<keyof JobResources, 'store'>;
/** What a machine check may be handed: not the checks themselves, which are built from it. */
export type CheckResource = Exclude<JobResource, 'machineChecks'>;

/** The repositories and the other resources some jobs use: all they are handed. */
export interface JobNeeds<Resource extends JobResource = JobResource> {
  readonly store: readonly Repository[];
  readonly uses: readonly Resource[];
}

/** What jobs that declared `Needs` are handed. */
export type JobDepsOf<Needs extends JobNeeds> = { store: Pick<Store, Needs['store'][number]> } & Pick<
  JobResources,
  Needs['uses'][number]
>;

/** A feature's jobs (or machine checks): what they need, and how they are built from it. */
export interface JobPlan<Work, Resource extends JobResource = JobResource> {
  readonly needs: JobNeeds<Resource>;
  // A method (its parameter is compared both ways), so that a plan whose build takes the deps of its
  // own needs fits here whatever those are; planJobs is what ties the two together.
  build(deps: JobDepsOf<JobNeeds<Resource>>): Work[];
}

/** Jobs built by `build` from what `needs` declares, and nothing else. */
export function planJobs<const Needs extends JobNeeds, Work>(
  needs: Needs,
  build: (deps: JobDepsOf<Needs>) => Work[],
): JobPlan<Work, Needs['uses'][number]> {
  return { needs, build };
}

/**
 * The part of `resources` that `needs` names: those keys and no other, and a store holding those
 * repositories and no other. An optional resource the bot does not have (the spread timer when a test
 * fires the ticks by hand) is left out, as it was.
 */
export function handOut<Resource extends JobResource>(
  resources: Pick<JobResources, 'store' | Resource>,
  needs: JobNeeds<Resource>,
): JobDepsOf<JobNeeds<Resource>> {
  const store = Object.fromEntries(needs.store.map((name) => [name, resources.store[name]]));
  const handed = Object.fromEntries(
    needs.uses.filter((name) => resources[name] !== undefined).map((name) => [name, resources[name]]),
  );
  // Object.fromEntries forgets which keys it was given; they are exactly the ones `needs` names.
  return { ...handed, store } as JobDepsOf<JobNeeds<Resource>>;
}
