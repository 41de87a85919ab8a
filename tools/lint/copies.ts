// `npm run lint`: no new copied code in src/. jscpd (pinned in package.json) finds the copies; the
// ones src/ already had when this check came are listed in known-copies.txt beside this file, and
// only a copy beyond that list fails the lint. The list is a ratchet, meant to shrink to nothing:
//
// - it is kept per pair of files, one line per copy, not per line number, so that an edit elsewhere
//   in either file does not move a known copy out of the list;
// - a pair with more copies than its lines, or a pair not listed, fails: the copy is new;
// - a pair with fewer copies than its lines fails too, and names the line to delete, so that a copy
//   removed stays removed (the line would otherwise let a new copy in between the same two files).
//
// Add a line only for a copy that is better left as it is, and say why in the commit.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = 'src';
const BASELINE = 'tools/lint/known-copies.txt';
// jscpd's own defaults, written out so that a new version of it cannot change what counts as a copy.
const DETECTION = ['--format', 'typescript', '--min-tokens', '50', '--min-lines', '5', '--mode', 'mild'];

interface Clone {
  firstFile: { name: string; start: number; end: number };
  secondFile: { name: string; start: number; end: number };
  lines: number;
}

function findClones(): Clone[] {
  const output = mkdtempSync(join(tmpdir(), 'jscpd-'));
  try {
    const jscpd = fileURLToPath(import.meta.resolve('jscpd/run-jscpd.js'));
    const run = spawnSync(
      process.execPath,
      [jscpd, ...DETECTION, '--ignore', '**/*.test.ts', '--reporters', 'json', '--output', output, ROOT],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) {
      console.error(run.stdout, run.stderr);
      throw new Error(`jscpd exited with ${run.status ?? run.signal}`);
    }
    const report = JSON.parse(readFileSync(join(output, 'jscpd-report.json'), 'utf8')) as {
      duplicates: Clone[];
    };
    return report.duplicates;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/** The key of a pair of files, as known-copies.txt spells it: both paths from the repository root, sorted. */
function pairOf(clone: Clone): string {
  return [clone.firstFile.name, clone.secondFile.name]
    .map((name) => join(ROOT, name))
    .sort()
    .join(' ');
}

function countBy(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

const clones = findClones();
const found = countBy(clones.map(pairOf));
const allowed = countBy(
  readFileSync(BASELINE, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/).join(' '))
    .filter((line) => line !== '' && !line.startsWith('#')),
);

const problems: string[] = [];
for (const [pair, count] of found) {
  const known = allowed.get(pair) ?? 0;
  if (count <= known) continue;
  problems.push(`New copied code (${count} copies between these files, ${known} known):`);
  for (const clone of clones.filter((candidate) => pairOf(candidate) === pair)) {
    const { firstFile: a, secondFile: b } = clone;
    problems.push(
      `  ${join(ROOT, a.name)}:${a.start}-${a.end} and ${join(ROOT, b.name)}:${b.start}-${b.end} (${clone.lines} lines)`,
    );
  }
}
for (const [pair, known] of allowed) {
  const count = found.get(pair) ?? 0;
  if (count >= known) continue;
  problems.push(
    `Fewer copies than ${BASELINE} allows: ${pair} has ${count}, the list ${known}; ` +
      `delete ${known - count} of its lines "${pair}" there, so the copy stays gone.`,
  );
}

if (problems.length > 0) {
  for (const line of problems) console.error(line);
  console.error(`Move the shared code into one place, or see ${BASELINE} for the known copies.`);
  process.exit(1);
}
console.log(`${clones.length} copies in ${ROOT}/, all known (${BASELINE}); no new ones.`);
