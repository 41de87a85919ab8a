// What a benchmark reports, how it is printed, and how bench/RESULTS.md keeps the latest run of each
// benchmark: every benchmark owns one marked section, so running one benchmark rewrites only its own.
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';

/** One line of a benchmark's table: a figure, the same figure for the reference, and the goal. */
export interface ResultRow {
  metric: string;
  measured: string;
  reference: string;
  /** measured / reference; undefined where there is no reference. */
  ratio?: number;
  goal: string;
  /** undefined for figures shown for information only. */
  pass?: boolean;
  /**
   * Why the goal cannot be met on this machine, read from the reference measured in the same run (the
   * floor itself misses it). Shown instead of FAIL; the row still does not pass.
   */
  outOfReach?: string;
}

export interface BenchmarkResult {
  name: string;
  title: string;
  /** What ran and against what, in a sentence or two. */
  setup: string;
  rows: ResultRow[];
  notes: string[];
}

export interface RunEnvironment {
  date: string;
  cpu: string;
  cores: number;
  memory: string;
  node: string;
  os: string;
}

export function describeEnvironment(at: Date = new Date()): RunEnvironment {
  const cpus = os.cpus();
  return {
    date: at.toISOString().replace(/\.\d+Z$/, 'Z'),
    cpu: cpus[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus.length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export const passed = (result: BenchmarkResult): boolean => result.rows.every((row) => row.pass !== false);

const verdict = (row: ResultRow): string => {
  if (row.pass === undefined) return '';
  if (row.pass) return 'PASS';
  return row.outOfReach === undefined ? 'FAIL' : `out of reach: ${row.outOfReach}`;
};
const ratioText = (row: ResultRow): string => (row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x`);

const HEADERS = ['metric', 'measured', 'reference', 'ratio', 'goal', 'result'];
const cells = (row: ResultRow): string[] => [
  row.metric,
  row.measured,
  row.reference,
  ratioText(row),
  row.goal,
  verdict(row),
];

/** The result as a plain-text table for the terminal. */
export function formatTable(result: BenchmarkResult): string {
  const lines = [HEADERS, ...result.rows.map(cells)];
  const widths = HEADERS.map((_, column) => Math.max(...lines.map((line) => (line[column] ?? '').length)));
  const render = (line: string[]) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [
    `== ${result.title}: ${passed(result) ? 'PASS' : 'FAIL'}`,
    result.setup,
    '',
    render(HEADERS),
    rule,
    ...result.rows.map((row) => render(cells(row))),
    ...(result.notes.length > 0 ? ['', ...result.notes.map((note) => `* ${note}`)] : []),
  ].join('\n');
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/** Columns padded to their widest cell, as the repository's formatter (biome) lays tables out. */
function markdownTable([header = [], ...body]: string[][]): string[] {
  const widths = header.map((_, column) =>
    Math.max(...[header, ...body].map((line) => (line[column] ?? '').length)),
  );
  const render = (line: string[]) =>
    `| ${widths.map((width, column) => (line[column] ?? '').padEnd(width)).join(' | ')} |`;
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...body.map(render)];
}

function markdownSection(result: BenchmarkResult, environment: RunEnvironment): string {
  return [
    `## ${result.title}: ${passed(result) ? 'PASS' : 'FAIL'}`,
    '',
    `Run ${environment.date} on ${environment.cpu} (${environment.cores} cores, ${environment.memory}), ` +
      `Node ${environment.node}, ${environment.os}.`,
    '',
    result.setup,
    '',
    ...markdownTable([HEADERS, ...result.rows.map((row) => cells(row).map(escapeCell))]),
    ...(result.notes.length > 0 ? ['', ...result.notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
}

const INTRO = `# Benchmark results

Written by \`npm run bench\` (all benchmarks) or \`npm run bench -- completion|polling|ack|memory|cost-guard\` (the
ones named; the others keep their last results). Each benchmark measures the bot and its reference in
the same run and reports the ratio: the machines these run on are shared and noisy, so ratios are the
figures to compare across runs, absolute times are context. \`BENCH_QUICK=1\` runs small sizes to check
that the benchmarks work; its figures are not results and are not kept here.

They run on the production runtime, Node 24 (the image's, and \`engines\`), whichever Node starts
\`npm run bench\`: on another, bench/run.ts installs Node 24 and the dependencies built for it in a cache
folder and runs them there (bench/support/production-runtime.ts). What a request costs depends on the
runtime: on Node 20 every promise pays AsyncLocalStorage's hooks, which Node 24 does without, so figures
from Node 20 describe a bot nobody deploys. Each table's run line names the Node it ran on.

How each is measured:

- **completion**: real clock, the bot's real 5 s poll timer, the emulator answering every call after
  250 ms, production Slack pacing. 10, 100 and 1,000 people with 10 watches each (10,000 at the top),
  each person in their own channel; machine k of every person finishes in wave k, waves 1.1 s apart.
  The emulator and the fake Slack run in a process of their own (Paperspace and Slack do not share the
  bot's CPU), which also reads the arrival times. Latency = the reply reaching the fake Slack minus the
  moment the machine reached serviceready. Reference = the goal's bound, poll interval + API latency + 1 s.
- **polling**: Paperspace calls per tick divided by the people with watches (the floor is 1.0x), at 100
  and 1,000 people with one watch each and 1,000 people with 10 each, once with one replica on SQLite
  and once with two replicas ticking together on one PostgreSQL schema (BENCH_DATABASE_URL, else
  TEST_DATABASE_URL, else the local server .ci/run starts). People polled twice or not at all in a tick
  are counted and fail the row. Calls are counted, not timed (the completion bench times). A v1 row per
  size (one replica, SQLite) starts the machines through v1, so each watch follows its start's event:
  its floor adds one event read per watch per six ticks.
- **ack**: a burst of 1,000 correctly signed requests sent at once, each on a connection of its own
  (\`/ps list\` commands, then Usage clicks), to the bot and to the minimal-work floor, each in its own
  process; Paperspace answers after 250 ms. The floor (bench/ack/floor-app.ts) is the least any app
  can do for these requests, built as the bot is (the same createSlackApp receiver, logger and Slack
  transport): it acks, makes the one Paperspace call the request needs with the person's key (undici,
  the same emulator) and posts one response_url reply. Ack = request sent to HTTP response; reply =
  request sent to the answer arriving at the fake Slack, stamped by the fake Slack as it arrives;
  CPU per request = the server's CPU from before the burst until its last reply arrived and it was
  idle again; heap allocated per request = the bytes the server allocated on V8's heap over the same
  span, counted so that when garbage collection runs does not move it (bench/support/heap-allocation.ts);
  Paperspace calls per request = the emulator's request log over the bursts. Goals: reply p99 at most
  1.2x the floor's for \`/ps list\` and a Usage click, CPU per request and heap allocated per request
  at most 2x the floor's, 1.0 Paperspace calls per request, no ack over 1 s. When the floor's own
  slowest ack in the run is over 1 s too, that row reads "out of reach" with the floor's figure instead of FAIL (it still
  does not pass): the burst outruns the machine whatever the bot does. The earlier goal, reply p99 within API
  latency + 500 ms, was below what the floor itself reaches on this machine under the burst (issue 27),
  and earlier runs stamped replies only once the whole burst was acked.

  acks-first (src/slack/acks-first.ts, which held a listener's work after its ack back while a burst
  was still being acked) was removed after two full ack runs with and without it in the same run
  (2026-11-24, 1,000-request bursts, load average 12-15 from other work on the machine):

  | burst       | run | ack p99 with / without | reply p50 with / without | reply p99 with / without |
  | ----------- | --- | ---------------------- | ------------------------ | ------------------------ |
  | \`/ps list\` | 1   | 12.6 s / 12.8 s        | 14.2 s / 13.5 s          | 20.4 s / 17.1 s          |
  | Usage click | 1   | 9.6 s / 18.1 s         | 13.5 s / 11.6 s          | 34.9 s / 27.8 s          |
  | \`/ps list\` | 2   | 10.5 s / 11.3 s        | 12.0 s / 9.0 s           | 19.1 s / 25.5 s          |
  | Usage click | 2   | 7.5 s / 34.9 s         | 10.7 s / 14.6 s          | 35.3 s / 91.1 s          |

  It shortened ack p99, but the reply a person waits for came later at p50 in three of four and at p99
  in two of four: it did not improve both, so it went. The first of those runs also found the listen
  backlog: Node's default of 511 connections overflowed under the burst (the kernel's ListenOverflows
  counter stood at 6,640 after it) and the dropped connections came back 1 to 7 s later; the bot now
  listens with a backlog of 4096, and the counter did not move during the second run.
- **memory**: the compiled build run as production runs it (\`node --enable-source-maps dist/main.js\`,
  one process, with the image's runtime environment read from the Dockerfile: NODE_OPTIONS, V8's heap
  caps, and MALLOC_*, glibc's allocator settings), 200 people with 50
  active watches each, all polled every tick; RSS summed over the process and everything it started,
  sampled every 200 ms over four poll intervals. Goal: under 200 MB.
- **cost-guard**: 1,000 machines mid-start of 50 people (20 each), one replica on SQLite, the legacy
  API, 5 s ticks on a fake clock; calls counted from the emulator's request log. Rows: calls per tick
  over 5 minutes with every person watching one machine (reference: one list per person, what the
  poller alone makes; goal 1.0x), lists per person over 5 minutes with nobody watching (goal 1), the
  tick 8 hours later (one alert per machine; lists + one rate lookup per alert), and the 5 minutes
  after it (no alert again, one list per person).`;

const sectionPattern = (name: string) =>
  new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);

/** Writes or replaces each result's section in the results file, keeping the other sections, in `order`. */
export async function updateResultsFile(
  path: string,
  results: readonly BenchmarkResult[],
  environment: RunEnvironment,
  order: readonly string[],
): Promise<void> {
  let existing = '';
  try {
    existing = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const sections = order.flatMap((name) => {
    const fresh = results.find((result) => result.name === name);
    if (fresh)
      return [`<!-- bench:${name} -->\n${markdownSection(fresh, environment)}\n<!-- /bench:${name} -->`];
    const kept = sectionPattern(name).exec(existing)?.[0];
    return kept ? [kept] : [];
  });
  await writeFile(path, `${[INTRO, ...sections].join('\n\n')}\n`);
}
