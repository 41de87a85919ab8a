// What a feature's listeners and operations are handed: the platform's deps, and only the repositories
// and shared services its feature declares (its `<feature>-deps.ts`, used by its index.ts). The wiring
// holds the whole store; features/index.ts hands each feature an object with its declared parts alone,
// so a listener cannot reach, even at run time, a repository its feature did not declare.
import type { WebClient } from '@slack/web-api';
import type { PlatformDeps } from '../slack/platform-deps.js';
import type { AuditTrail } from '../store/audit-trail.js';
import type { Store } from '../store/store.js';
import type { MachineWatcher, Watch } from '../store/watch-types.js';
import type { KeyVault } from '../vault/key-vault.js';

/** A repository a feature may declare: every part of the store but its plumbing. */
type StorePort = Exclude<keyof Store, 'dialect' | 'ping' | 'close'>;

/** What the wiring shares with the features besides the platform's deps and the store. */
interface ListenerServices {
  vault: KeyVault;
  audit: AuditTrail;
  watcher: MachineWatcher;
  now: () => number;
  /**
   * Redraws the row of a reminder, forgotten-machine alert or team digest that `watch` was started from
   * (a Stop on the row), ending it with `line`. Those messages are drawn by features above the machines
   * feature, which ends such a watch when a newer operation takes it over: the drawing is handed in
   * here (features/index.ts). Does nothing for a watch with a card of its own; never throws.
   */
  redrawRow(web: WebClient, watch: Watch, line: string): Promise<void>;
}

type ServiceName = keyof ListenerServices;

/**
 * The platform's deps with the named repositories and services: a feature's deps, or the part of them
 * a service shared between features uses (which every caller's deps then satisfy).
 */
export type FeatureDeps<
  Ports extends StorePort = never,
  Services extends ServiceName = never,
> = PlatformDeps & Pick<ListenerServices, Services> & { store: Pick<Store, Ports> };

/** What a feature declares it uses, once: the repositories and the shared services. */
export interface FeatureNeeds<
  Ports extends StorePort = StorePort,
  Services extends ServiceName = ServiceName,
> {
  readonly ports: readonly Ports[];
  readonly services: readonly Services[];
}

/** The deps of a feature that declares `needs`. */
export type DepsOf<Needs extends FeatureNeeds> = FeatureDeps<
  Needs['ports'][number],
  Needs['services'][number]
>;

/** Everything the wiring holds for the listeners. No listener receives it: see narrowDeps. */
export interface ListenerWiring extends PlatformDeps, ListenerServices {
  store: Store;
}

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) picked[key] = from[key];
  return picked as Pick<T, K>;
}

/** The wiring narrowed to what `needs` declares: the platform's deps, those services, those repositories. */
export function narrowDeps<Needs extends FeatureNeeds>(wiring: ListenerWiring, needs: Needs): DepsOf<Needs> {
  // The picks hold exactly the declared keys; the compiler cannot follow a pick over generic keys.
  return {
    clients: wiring.clients,
    logger: wiring.logger,
    pacer: wiring.pacer,
    ...pick(wiring, needs.services),
    store: pick(wiring.store, needs.ports),
  } as DepsOf<Needs>;
}
