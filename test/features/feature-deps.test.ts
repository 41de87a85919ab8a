// No listener or operation is handed the whole store: the bot's listener wiring, built over a real
// store, hands each feature an object that holds the repositories and services its feature declares
// and nothing else, whether it registers its buttons, modals and events, or `/ps` runs one of its
// operations. A repository a feature did not declare is not there to reach.
import type { WebClient } from '@slack/web-api';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commands, features } from '../../src/features/catalogue.js';
import type { Feature } from '../../src/features/feature.js';
import type { FeatureNeeds, ListenerWiring } from '../../src/features/feature-deps.js';
import { registerListeners } from '../../src/features/index.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';
import type { Operation } from '../../src/slack/operation.js';
import type { ListenerRouter } from '../../src/slack/router.js';
import { createAuditTrail } from '../../src/store/audit-trail.js';
import { openStore, type Store } from '../../src/store/store.js';

const PLATFORM = ['clients', 'logger', 'pacer'];

let store: Store;

beforeAll(async () => {
  store = await openStore('sqlite::memory:', { now: () => 0 });
});

afterAll(async () => {
  await store.close();
});

/** The bot's wiring over `store`: the services stand for themselves, only their identity is checked. */
function wiringOver(over: Store): ListenerWiring {
  const logger = pino({ level: 'silent' });
  return {
    store: over,
    clients: { name: 'clients' } as unknown as ListenerWiring['clients'],
    logger,
    pacer: createChannelPacer({ pacing: null }),
    vault: { name: 'vault' } as unknown as ListenerWiring['vault'],
    audit: createAuditTrail({ audit: over.audit, now: () => 0, logger }),
    watcher: { name: 'watcher' } as unknown as ListenerWiring['watcher'],
    now: () => 0,
    redrawRow: async () => {},
  };
}

type CommandListener = Parameters<ListenerRouter['command']>[1];

/** Registers the bot's listeners on a router that keeps the `/ps` listener and drops the rest. */
function register(wiring: ListenerWiring): CommandListener {
  let psCommand: CommandListener | undefined;
  registerListeners(
    {
      command: (_name, listener) => {
        psCommand = listener;
      },
      action: () => {},
      view: () => {},
      event: () => {},
      function: () => {},
    },
    wiring,
  );
  if (psCommand === undefined) throw new Error('no /ps listener was registered');
  return psCommand;
}

/** What a feature declares: its repositories and its services (none when it declares nothing). */
function needsOf(feature: Feature): FeatureNeeds {
  return feature.needs ?? { ports: [], services: [] };
}

function expectOnlyDeclared(deps: unknown, feature: Feature, wiring: ListenerWiring) {
  const needs = needsOf(feature);
  const handed = deps as Record<string, unknown> & { store: Record<string, unknown> };
  expect(Object.keys(handed.store).sort()).toEqual([...needs.ports].sort());
  for (const port of needs.ports) expect(handed.store[port]).toBe(wiring.store[port]);
  expect(Object.keys(handed).sort()).toEqual([...PLATFORM, ...needs.services, 'store'].sort());
  for (const service of needs.services) expect(handed[service]).toBe(wiring[service]);
}

const everyFeature: readonly Feature[] = features;

/**
 * `/ps` text that reads as `operation`: one of its help's examples, as Slack sends it (a mention or a
 * channel as Slack encodes them, where the help shows them as a person sees them).
 */
function typedText(operation: Operation): string {
  for (const example of operation.help.examples) {
    const shown = example.replace(/^\/\S+\s*/, '');
    const sent = shown
      .replace(/(^|\s)@(\w+)/g, (_all, space: string, name: string) => `${space}<@U0${name.toUpperCase()}>`)
      .replace(/(^|\s)#([\w-]+)/g, '$1<#C0ROOM|$2>');
    for (const text of [shown, sent]) {
      const parsed = commands.parse(text);
      if (parsed.ok && parsed.definition === operation) return text;
    }
  }
  throw new Error(`no example of ${operation.name} reads as it`);
}

describe('the listener wiring', () => {
  it('hands each feature’s listeners the repositories and services it declares, and no others', () => {
    const wiring = wiringOver(store);
    const listening = everyFeature.filter((feature) => feature.listen !== undefined);
    const spies = listening.map((feature) =>
      vi.spyOn(feature as Required<Pick<Feature, 'listen'>>, 'listen'),
    );
    try {
      register(wiring);
      listening.forEach((feature, index) => {
        expect(spies[index]).toHaveBeenCalledTimes(1);
        expectOnlyDeclared(spies[index]?.mock.calls[0]?.[1], feature, wiring);
      });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('runs each `/ps` operation with its feature’s declared deps, and a context that holds no store', async () => {
    const wiring = wiringOver(store);
    const psCommand = register(wiring);
    for (const feature of everyFeature) {
      for (const operation of feature.operations ?? []) {
        const run = vi.spyOn(operation, 'run').mockResolvedValue(undefined);
        try {
          const example = typedText(operation);
          await psCommand({
            command: {
              text: example,
              user_id: 'U1',
              team_id: 'T1',
              channel_id: 'C1',
              trigger_id: 'trigger',
            },
            ack: async () => {},
            respond: async () => {},
            client: {} as WebClient,
            context: {},
            // The listener reads only these; Bolt's other arguments play no part here.
          } as unknown as Parameters<CommandListener>[0]);
          expect(run, example).toHaveBeenCalledTimes(1);
          const [, context, deps] = run.mock.calls[0] ?? [];
          expect(context?.deps, example).not.toHaveProperty('store');
          expectOnlyDeclared(deps, feature, wiring);
        } finally {
          run.mockRestore();
        }
      }
    }
  });
});
