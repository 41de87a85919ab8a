// Architecture rules for `npm run lint` (dependency-cruiser; run as `depcruise src tools`).
//
// The bot is layered. Each layer may import the ones listed before it, never one after it:
//
//   paperspace/      the Paperspace API client: imports nothing else from src/
//   config.ts        read by every layer, store/ included (its pieces are in config/)
//   logger.ts        store/ takes only its types (it imports observability/); never slack,
//                    features or scheduler
//   store/           persistence: config.ts, and logger.ts's types
//   vault/           API keys at rest: store, paperspace
//   errors/          describeError and user-facing error text: paperspace, vault, store
//   domain/          the ideas several features share (a person's team role, who owns a machine,
//                    the machine state vocabulary, billing months and money): paperspace, store,
//                    vault, errors, config.ts, logger.ts types; never slack, scheduler, features
//   observability/   metrics, request scopes, /metrics routes: never slack, features, scheduler
//   scheduler/       the scheduling engine: never slack or features
//   slack/           the thin Slack platform (app, router, Block Kit kit, command language):
//                    never features or scheduler
//   features/        one folder per feature: anything above; another feature's services and
//                    blocks, never its listeners. The features themselves are ordered: FEATURE_ORDER
//                    below lists them bottom up, and a module in one feature may import only
//                    modules of the features before it (and of its own), whichever sub-folder
//                    either file sits in.
//   main.ts, bot.ts  composition roots: wire it all together; nothing in src/ imports them
//
// tools/ (emulator, sandbox, start.ts) runs the real bot, so it may import anything in src/; src/
// never imports tools/ or test/.
//
// The order is strict, so the folders directly under src/ cannot form a cycle without breaking a
// layering rule, and that rule names the upward import to remove. The cycle rules say the same
// thing from the other side, and keep holding if a layering rule is loosened later.
//
// Every rule counts type-only imports too (tsPreCompilationDeps): a type import still couples
// two folders, a change in one can still break the other, and `import type` is one edit away
// from `import`.
//
// The paths below are relative to the repository root, where `npm run lint` runs.

/** Any module under src/ outside the given paths (the folder's own and the layers it may use). */
const elsewhereInSrc = (...allowed) => ({
  path: '^src/',
  pathNot: `^src/(${allowed.join('|')})`,
});

// The feature order, bottom up: each feature may import the ones before it, never one after it.
// Written once here, as data, so that the rules below are generated from it: the check is file by
// file, so an import from src/features/machines/x.ts up to src/features/catalog/blocks/y.ts fails
// even though no folder-level circle shows it. Features at one step of the design (shares, catalog
// and watches all build on machines) are still given a strict order, so that a new import between
// them is a choice made here, in one line, rather than a circle found later. A new feature folder
// takes its place in this list (feature-folder-in-the-order refuses one that has none).
const FEATURE_ORDER = [
  // the cards, power, create, update, destroy, access, usage, and starting a watch; what it does
  // through higher features (asking an owner, redrawing the Home, a catalogue page) is handed in
  // by features/index.ts
  'machines',
  // shares, catalog and watches use machines' lookups, cards and flows
  'shares',
  'catalog',
  'watches',
  // decides requests with machines' flows; the Stop-in-a-row service
  'approvals',
  // the rows of reminders, digests and cost alerts stop through approvals and end through watches
  'reminders',
  'spend',
  'cost-alerts',
  // budgets count spend as /ps spend does, and their requests go through approvals
  'budgets',
  // warns and stops on the cost guard's runs, with its recipients (the owner rule)
  'policies',
  // imports no feature
  'retention',
  // the App Home draws machines' cards
  'home',
  // login and logout redraw the Home; uninstall purges shares
  'account',
  // act through machines' lookups, power and cards, and through approvals' requests
  'workflow-steps',
  'unfurls',
  // Slackbot's front door: runs every feature's operations, handed in by features/index.ts
  'slackbot',
];

/** One rule per feature: none of its modules imports a module of a feature after it in the order. */
const featureOrderRules = FEATURE_ORDER.flatMap((feature, index) => {
  const above = FEATURE_ORDER.slice(index + 1);
  if (above.length === 0) return [];
  const below = FEATURE_ORDER.slice(0, index);
  return [
    {
      name: `feature-order-${feature}`,
      comment:
        `${feature} sits above ${below.length === 0 ? 'no other feature' : below.join(', ')} in ` +
        `FEATURE_ORDER, so it may import those and itself only; importing ${above.join(', ')} ` +
        'would let a lower feature depend on a higher one, the first step of a circle. Move the ' +
        "shared piece down (into domain/ or the lower feature's services) or have " +
        'features/index.ts hand the higher function in.',
      severity: 'error',
      from: { path: `^src/features/${feature}/` },
      to: { path: `^src/features/(${above.join('|')})/` },
    },
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---------------------------------------------------------------------------------------------
    // Cycles
    // ---------------------------------------------------------------------------------------------
    {
      name: 'no-folder-cycle',
      comment:
        'A cycle between the folders directly under src/ means neither side can be understood, tested ' +
        'or changed without the other, and it is how the layering below erodes: one upward import ' +
        'at a time. Break it by moving the shared piece down, or by passing a function in.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-feature-cycle',
      comment:
        'A circle among the feature folders means no feature in it can be read, tested or changed ' +
        'alone, and each shared idea ends up owned by whichever feature needed it first. Features ' +
        'import one way (FEATURE_ORDER, checked file by file by the feature-order rules; this rule ' +
        'sees only circles between whole feature folders and stays as a second line should the ' +
        'order be loosened). Break a circle by moving the shared piece down, into domain/ or the ' +
        "lower feature's services, or by having features/index.ts pass a function in.",
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/features/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      comment:
        'A cycle between files makes module initialisation order matter (an import can be undefined ' +
        'while its module is still loading) and cannot be tested in parts. src/ has none; keep it so. ' +
        '(tools/ is left out: tools/sandbox has a cycle today, change-feed.ts <-> workspace.ts.)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },

    // ---------------------------------------------------------------------------------------------
    // Layering, bottom up
    // ---------------------------------------------------------------------------------------------
    {
      name: 'paperspace-imports-nothing-from-the-bot',
      comment:
        'paperspace/ is a plain API client (the emulator and the benchmarks use it on its own); ' +
        'it must not know about storage, Slack or features.',
      severity: 'error',
      from: { path: '^src/paperspace/' },
      to: elsewhereInSrc('paperspace/'),
    },
    {
      name: 'store-imports-only-config-and-logger-types',
      comment:
        'store/ sits under everything that persists state. It may read config.ts (the database URL) ' +
        'and use logger.ts for types; anything more would let a higher layer leak into the schema.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: elsewhereInSrc('store/', 'config\\.ts$', 'logger\\.ts$'),
    },
    {
      name: 'store-imports-logger-types-only',
      comment:
        'logger.ts imports observability/, which imports store/: a value import of the logger from ' +
        'store/ would close that loop at run time. Take a Logger as a parameter; import only its type.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/logger\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'vault-imports-only-store-and-paperspace',
      comment:
        'vault/ encrypts API keys into the store and builds Paperspace clients from them; nothing else.',
      severity: 'error',
      from: { path: '^src/vault/' },
      to: elsewhereInSrc('vault/', 'store/', 'paperspace/'),
    },
    {
      name: 'errors-imports-only-paperspace-vault-store',
      comment:
        'errors/ turns any failure into user-facing text, so every layer above, Slack included, uses it. ' +
        'It may know the errors of the layers below it (paperspace, vault, store), never the layers ' +
        'that call it (slack, features, scheduler, observability).',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: elsewhereInSrc('errors/', 'paperspace/', 'vault/', 'store/'),
    },
    {
      name: 'domain-below-slack-scheduler-and-features',
      comment:
        'domain/ holds what several features mean by a role, an owner, a running machine or a month ' +
        'of money, once, so they cannot disagree. It sits below the features and below slack/ (it says ' +
        'what things are, not how they are shown): it may use the API client, the store, the vault, ' +
        "errors, config.ts and the logger's types, and importing anything above would put a feature's " +
        'idea back under its name.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: elsewhereInSrc(
        'domain/',
        'paperspace/',
        'store/',
        'vault/',
        'errors/',
        'config\\.ts$',
        'logger\\.ts$',
      ),
    },
    {
      name: 'domain-imports-logger-types-only',
      comment:
        'As for store/: logger.ts imports observability/, so a value import would tie domain/ to ' +
        'metrics at run time. Take a Logger as a parameter; import only its type.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/logger\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'observability-not-above-itself',
      comment:
        'slack/, the scheduler and the features all report into observability/; for it to import any ' +
        'of them would make a cycle. Have the caller pass in what it needs.',
      severity: 'error',
      from: { path: '^src/observability/' },
      to: { path: '^src/(slack|features|scheduler)/' },
    },
    {
      name: 'scheduler-is-an-engine',
      comment:
        'scheduler/ is only the engine (timers, cron, concurrency). Features register their jobs with ' +
        'it; it must not import them, nor Slack, or it can no longer be tested or reused on its own.',
      severity: 'error',
      from: { path: '^src/scheduler/' },
      to: { path: '^src/(slack|features)/' },
    },
    {
      name: 'slack-platform-knows-no-features',
      comment:
        'slack/ is the thin platform the features plug into (router, contexts, posting, Block Kit kit, ' +
        'command language). Features register with it; it must not import them or the scheduler.',
      severity: 'error',
      from: { path: '^src/slack/' },
      to: { path: '^src/(features|scheduler)/' },
    },
    ...featureOrderRules,
    {
      name: 'feature-folder-in-the-order',
      comment:
        'The feature-order rules are generated from FEATURE_ORDER, so a feature folder missing ' +
        'from it would be checked by none of them. Give the new feature its place in the list.',
      severity: 'error',
      from: {
        path: '^src/features/[^/]+/',
        pathNot: `^src/features/(${FEATURE_ORDER.join('|')})/`,
      },
      to: { path: '^src/' },
    },
    {
      name: 'features-index-is-the-top',
      comment:
        "features/index.ts wires every feature together and hands the higher features' functions " +
        'down to the lower ones; a feature importing it would depend on every feature above it.',
      severity: 'error',
      from: { path: '^src/features/[^/]+/' },
      to: { path: '^src/features/index\\.ts$' },
    },
    {
      name: 'no-other-features-listeners',
      comment:
        "A feature may use another feature's services and blocks, but not its listeners (commands/, " +
        'buttons/, modals/, events.ts): those are entry points Slack calls, registered once by ' +
        "features/index.ts. Move what you need into the other feature's services or blocks.",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: {
        path: '^src/features/[^/]+/(commands/|buttons/|modals/|events\\.ts$)',
        pathNot: '^src/features/$1/',
      },
    },
    {
      name: 'root-base-files-stay-at-the-bottom',
      comment:
        'store/ reads config.ts and logger.ts, so they (and config/, the pieces config.ts is made of) ' +
        'are part of the bottom layer: importing the scheduler, Slack or the features from them would ' +
        'close a cycle through store/.',
      severity: 'error',
      from: { path: '^src/((config|logger)\\.ts$|config/)' },
      to: { path: '^src/(slack|features|scheduler)/' },
    },
    {
      name: 'nothing-imports-the-composition-roots',
      comment:
        'main.ts and bot.ts wire everything together, so everything in src/ is below them. Only ' +
        'main.ts may import bot.ts (and tools/ may import either, to run the real bot).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/main\\.ts$' },
      to: { path: '^src/(main|bot)\\.ts$' },
    },

    // ---------------------------------------------------------------------------------------------
    // src/ stands alone
    // ---------------------------------------------------------------------------------------------
    {
      name: 'src-imports-no-tools-or-tests',
      comment:
        'The production build compiles src/ alone. tools/ (emulator, sandbox, start.ts) and test/ ' +
        '(and bench/) may import src/, never the other way round.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(tools|test|bench)/' },
    },
    {
      name: 'no-unresolvable-import',
      comment:
        'An import dependency-cruiser cannot resolve is invisible to every rule above, so a broken ' +
        'resolution would silently turn the architecture check off.',
      severity: 'error',
      from: { path: '^(src|tools)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Follow imports into src/, tools/ and test/ (to see a src -> test import), not into packages.
    doNotFollow: { path: 'node_modules' },
    // Count `import type` too: see the header.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Resolve packages through their `exports` maps as Node does for an ES module (the MCP SDK's
    // subpaths, `@modelcontextprotocol/sdk/server/index.js`, exist only there).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    // Lets a second run skip unchanged files; keyed on file contents, so it is never stale.
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
