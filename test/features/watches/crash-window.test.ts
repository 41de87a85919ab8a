// A replica killed (SIGKILL) while posting 50 completions, then started again minutes later: every
// completion reaches Slack (none lost), and the only ones posted twice are those Slack had taken when
// the replica died but had not yet answered (docs/scheduler.md, "can be posted twice"), and each such
// repeat says it may be one; a completion whose post never went out is posted once, plainly.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAY_REPEAT_NOTE } from '../../../src/features/watches/watch-messages.js';
import { createWatchOutcomes, RETRY_AFTER_MS } from '../../../src/features/watches/watch-outcomes.js';
import { sqliteFile, useFreshStore } from '../../store/store-factories.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { captureLogs } from '../../support/log-capture.js';

const REPLICA = fileURLToPath(new URL('./fixtures/post-due-outcomes.ts', import.meta.url));
const COMPLETIONS = 50;
const CHANNELS = ['C0OPS', 'C0ML', 'C0DATA', 'C0INFRA', 'C0WEB'];
/** How long Slack takes to answer a post it has already taken: the window a kill can fall into. */
const SLACK_ANSWER_MS = 150;

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack({ botToken: 'xoxb-crash-window' });
});
afterAll(() => slack.close());

function startReplica(url: string, aheadMs: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', REPLICA, url, slack.apiUrl, String(aheadMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const name = (index: number) => `crash-${String(index).padStart(3, '0')}`;

interface PostOf {
  /** Its place among every chat.postMessage Slack received. */
  index: number;
  channel: string;
  /** The line about the machine is followed by the note that it may be a repeat. */
  saysRepeat: boolean;
}

/**
 * Each post that carried each completion, oldest first, by machine name: a post may carry several (the
 * completions waiting for one channel go out together), one line each.
 */
function postsByMachine(): Map<string, PostOf[]> {
  const posts = new Map<string, PostOf[]>();
  for (let index = 0; index < COMPLETIONS; index++) posts.set(name(index), []);
  for (const [index, call] of slack.calls('chat.postMessage').entries()) {
    const lines = String(call.args.text ?? '').split('\n');
    for (const [machine, found] of posts) {
      const at = lines.findIndex((line) => line.includes(`*${machine}*`));
      if (at < 0) continue;
      found.push({
        index,
        channel: String(call.args.channel),
        saysRepeat: lines[at + 1] === MAY_REPEAT_NOTE,
      });
    }
  }
  return posts;
}

/** How many completions the posts Slack has received so far carry. */
const completionsTaken = () => [...postsByMachine().values()].filter((posts) => posts.length > 0).length;

describe('a replica killed while posting completions', () => {
  const db = useFreshStore(sqliteFile);

  it('loses none after a restart, and repeats only posts Slack had taken but not answered', async () => {
    const finishedAt = Date.now();
    const { logger } = captureLogs('warn');
    // Only stored() is used here, to write the reports as a finishing replica does: it posts nothing.
    const outcomes = createWatchOutcomes({
      store: db.store,
      reporter: { progress: async () => {}, finished: async () => {} },
      logger,
      now: Date.now,
    });
    for (let index = 0; index < COMPLETIONS; index++) {
      const watch = await db.store.watches.create({
        teamId: 'T0ACME',
        userId: `U0PERSON${index % 7}`,
        machineId: `pscrash${index}`,
        machineName: name(index),
        targetState: 'ready',
        channel: CHANNELS[index % CHANNELS.length] ?? 'C0OPS',
        createdAt: finishedAt - 5 * 60_000,
        deadlineAt: finishedAt + 30 * 60_000,
      });
      const report = {
        outcome: { status: 'done' as const, state: 'ready', elapsedMs: 120_000 },
        machine: null,
        timeline: [],
      };
      // Due now: finished by a replica that never posted them.
      await db.store.watches.complete(watch.id, {
        status: 'done',
        at: finishedAt - RETRY_AFTER_MS,
        report: outcomes.stored(report, finishedAt - RETRY_AFTER_MS),
      });
    }
    slack.script('chat.postMessage', { delayMs: SLACK_ANSWER_MS, times: Number.POSITIVE_INFINITY });

    // Killed once Slack has taken posts carrying 20 of them, mid-burst (five channels, a post a second in
    // each, the completions waiting for a channel's turn together in one post).
    const first = startReplica(db.url, 0);
    await slack.waitFor(() => completionsTaken() >= 20, { timeoutMs: 30_000 });
    first.kill('SIGKILL');
    await once(first, 'exit');
    const takenBeforeKill = slack.calls('chat.postMessage').length;
    /** The last post Slack had taken in each channel when the replica died: the one that may be unanswered. */
    const lastBeforeKill = new Map<string, number>();
    for (const [index, call] of slack.calls('chat.postMessage').slice(0, takenBeforeKill).entries()) {
      lastBeforeKill.set(String(call.args.channel), index);
    }

    // What the dead replica had recorded as handed to Slack: the posts Slack took unanswered, and the
    // one per channel it died sending before Slack had it (recorded first, so it is never silent).
    const farFuture = Date.now() + RETRY_AFTER_MS + 120_000;
    const recordedSending = new Set(
      (await db.store.watches.dueReports(farFuture, 100))
        .filter((due) => due.sentAt !== null)
        .map((due) => due.watch.machineName),
    );

    // Started again past the retry time of what the dead replica had claimed.
    const second = startReplica(db.url, RETRY_AFTER_MS + 60_000);
    const [exitCode] = await once(second, 'exit');
    expect(exitCode).toBe(0);

    const byMachine = [...postsByMachine().entries()];
    const posts = byMachine.map(([, found]) => found);
    const lost = posts.filter((found) => found.length === 0).length;
    const repeated = posts.filter((found) => found.length > 1);
    const unexplained = repeated.filter((found) => !found.slice(1).every((post) => post.saysRepeat));
    process.stdout.write(
      `crash window: ${COMPLETIONS} due, ${takenBeforeKill} posts taken by Slack before the kill, ` +
        `${repeated.length} posted twice (${unexplained.length} without saying it may be a repeat), ${lost} lost\n`,
    );
    expect(lost).toBe(0);
    // Only what was in the post in flight in its channel when the replica died is posted again (one post
    // at a time per channel), and each repeat says so.
    for (const [firstPost] of repeated) {
      expect(firstPost?.index).toBe(lastBeforeKill.get(firstPost?.channel ?? ''));
    }
    expect(unexplained).toEqual([]);
    // Completions posted once carry the note only if the dead replica had recorded handing them to
    // Slack (it died between that record and Slack receiving the post): never one it had not sent.
    const postedOnce = byMachine.filter(([, found]) => found.length === 1);
    expect(postedOnce.length).toBe(COMPLETIONS - repeated.length);
    const notedOnce = postedOnce.filter(([, found]) => found[0]?.saysRepeat).map(([machine]) => machine);
    expect(notedOnce.filter((machine) => !recordedSending.has(machine))).toEqual([]);
    expect(await db.store.watches.dueReports(Date.now() + RETRY_AFTER_MS + 60_000, 100)).toEqual([]);
  }, 120_000);
});
