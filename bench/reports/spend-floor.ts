// The least work any client does for /ps spend of one person, as the reports benchmark's reference: the
// legacy list's pages one after another, then every machine's utilization with the same key, as many at
// once as the key's per-second limit lets through, each second's share sent as the emulator's window
// opens. No pace to find, no store, no parsing beyond JSON, no message: what is left is Paperspace's own
// time on this machine at this moment, which the bot's reply time is compared with.
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';

const PAGE = 1000;

interface FloorOptions {
  apiUrl: string;
  apiKey: string;
  /** The emulator's calls per second per key. */
  perKeyLimit: number;
}

/** Milliseconds from the first list call to the last utilization's answer. */
export async function measureSpendFloor({ apiUrl, apiKey, perKeyLimit }: FloorOptions): Promise<number> {
  const base = new URL(apiUrl);
  const pool = new Pool(base.origin, { connections: perKeyLimit, pipelining: 1 });
  const get = async (path: string, query: Record<string, string>) => {
    for (;;) {
      const response = await pool.request({
        method: 'GET',
        path: `${base.pathname.replace(/\/$/, '')}${path}?${new URLSearchParams(query)}`,
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
      });
      const text = await response.body.text();
      if (response.statusCode === 429) {
        await delay(1000);
        continue;
      }
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${text}`);
      return JSON.parse(text) as unknown;
    }
  };
  // The emulator counts a key's calls in windows of whole seconds: a second's share goes as one opens.
  const nextWindow = () => delay(1000 - (Date.now() % 1000));
  try {
    await nextWindow();
    const started = performance.now();
    const ids: string[] = [];
    for (let skip = 0; ; skip += PAGE) {
      const page = (await get('/machines/getMachines', { limit: String(PAGE), skip: String(skip) })) as {
        id: string;
      }[];
      ids.push(...page.map((machine) => machine.id));
      if (page.length < PAGE) break;
    }
    const month = new Date().toISOString().slice(0, 7);
    const reads: Promise<unknown>[] = [];
    // At once what the list's window has left (its calls may all have fallen in it), then a key's
    // whole limit as each next window opens.
    let share = perKeyLimit - (Math.floor(ids.length / PAGE) + 1);
    for (let at = 0; at < ids.length; at += share, share = perKeyLimit) {
      if (at > 0) await nextWindow();
      for (const machineId of ids.slice(at, at + share))
        reads.push(get('/machines/getUtilization', { machineId, billingMonth: month }));
    }
    await Promise.all(reads);
    return performance.now() - started;
  } finally {
    await pool.close();
  }
}
