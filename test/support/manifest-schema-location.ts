// Where Slack's published manifest schemas are: SLACK_MANIFEST_SCHEMA_DIR when set, else
// `shared/slack-manifest-schema/` beside the checkout, or beside the main checkout when this is a git
// worktree. The search goes no higher: a `shared/` that happens to sit beside some ancestor (say
// /tmp/shared) is not this checkout's, and finding it would make a fresh clone's run depend on
// whatever else is on the machine. A fresh clone has neither, and `npm test` must still pass there: outside CI
// the schema tests are skipped with a line saying how to run them; with CI set they fail instead, so
// a CI run cannot pass without having checked the manifest against Slack's schema.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
const SCHEMA_FILE = 'manifest.schema.json';

/** A worktree's `.git` is a file naming `<main checkout>/.git/worktrees/<name>`. */
function mainCheckoutOfWorktree(): string | undefined {
  const dotGit = join(repoRoot, '.git');
  if (!existsSync(dotGit) || !statSync(dotGit).isFile()) return undefined;
  const gitDir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return gitDir === undefined ? undefined : dirname(dirname(dirname(resolve(repoRoot, gitDir))));
}

function findSchemaDirectory(): string | undefined {
  const configured = process.env.SLACK_MANIFEST_SCHEMA_DIR || undefined;
  if (configured !== undefined) return resolve(configured);
  const checkouts = [repoRoot, mainCheckoutOfWorktree()].filter((dir) => dir !== undefined);
  return checkouts
    .map((checkout) => join(checkout, '..', 'shared', 'slack-manifest-schema'))
    .find((candidate) => existsSync(join(candidate, SCHEMA_FILE)));
}

const manifestSchemaDirectory = findSchemaDirectory();

const HOW_TO_RUN =
  "set SLACK_MANIFEST_SCHEMA_DIR to a directory holding Slack's manifest.schema.json and " +
  'manifest.schema.<version>.0.0.json, or put them in shared/slack-manifest-schema/ beside the checkout';

/** Why the schema tests do not run, or undefined when they run (or, under CI, must fail). */
export const manifestSchemaSkipReason =
  manifestSchemaDirectory === undefined && !inCi
    ? `Slack's manifest schema was not found; ${HOW_TO_RUN}`
    : undefined;

/** The schema directory; throws (the CI case) when there is none. */
export function requireManifestSchemaDirectory(): string {
  if (manifestSchemaDirectory !== undefined && existsSync(join(manifestSchemaDirectory, SCHEMA_FILE))) {
    return manifestSchemaDirectory;
  }
  throw new Error(
    manifestSchemaDirectory === undefined
      ? `CI is set but Slack's manifest schema was not found: ${HOW_TO_RUN}.`
      : `SLACK_MANIFEST_SCHEMA_DIR (${manifestSchemaDirectory}) holds no ${SCHEMA_FILE}.`,
  );
}
