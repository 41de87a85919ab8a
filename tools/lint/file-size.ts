// `npm run lint`: at most MAX_LONG_FILES files in src/ may run over MAX_LINES lines. A long file is
// usually several responsibilities that grew together, and one that is hard to read in one sitting
// or to review in one diff; a few may be long for a reason, but the count is capped so that each new
// one is a decision (split another first) rather than drift. Lines are counted as `wc -l` counts
// them, so the number printed here is the one a reader checks by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = 'src';
const MAX_LINES = 400;
const MAX_LONG_FILES = 3;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

const long = filesUnder(ROOT)
  .map((path) => ({ path, lines: lineCount(path) }))
  .filter((file) => file.lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines);

for (const file of long) console.log(`${String(file.lines).padStart(6)}  ${file.path}`);
const summary = `${long.length} file(s) in ${ROOT}/ over ${MAX_LINES} lines; at most ${MAX_LONG_FILES} allowed.`;
if (long.length > MAX_LONG_FILES) {
  console.error(`${summary} Split one along its responsibilities (see tools/lint/file-size.ts).`);
  process.exit(1);
}
console.log(summary);
