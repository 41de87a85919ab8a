import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../tools/emulator/index.js';
import { eventually } from '../features/machines/machine-kit.js';
import { startTestBot } from '../support/test-bot.js';

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe("the running bot's stop()", () => {
  it('stops taking requests, lets a handler waiting on a slow Paperspace finish, then resolves', async () => {
    const bot = await startTestBot({ emulator: { latencyMs: 300 } });
    try {
      await bot.link('ada');
      const request = bot.requests.slashCommand({ text: 'list' });
      const ack = await bot.send(request);
      expect(ack.status).toBe(200);
      // Acked, and now waiting on the emulator's answer.
      expect(bot.slack.responses(request.responseUrlId ?? '')).toEqual([]);

      const started = Date.now();
      const stopping = bot.stop();
      expect(bot.stop()).toBe(stopping);
      await stopping;

      // The list reached the person before stop() resolved: the handler was let finish.
      expect(bot.slack.responses(request.responseUrlId ?? '')).toHaveLength(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(await refused(`${bot.url}/healthz`)).toBe(true);
      await expect(bot.stop()).resolves.toBeUndefined();
    } finally {
      await bot.close();
    }
  });

  it('answers /readyz 503 at once, and keeps serving Slack for drainMs before the port closes', async () => {
    const bot = await startTestBot();
    try {
      await bot.link('ada');
      expect((await bot.get('/readyz')).status).toBe(200);

      const started = Date.now();
      const stopping = bot.stop({ drainMs: 600 });
      const ready = await bot.get('/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toEqual({ status: 'unavailable', reason: 'shutting down' });
      expect((await bot.get('/livez')).status).toBe(200);
      // A command a load balancer sent before it noticed is still answered.
      const request = bot.requests.slashCommand({ text: 'help' });
      expect((await bot.send(request)).status).toBe(200);
      await eventually(async () =>
        bot.slack.responses(request.responseUrlId ?? '').length > 0 ? true : undefined,
      );

      await stopping;
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      expect(await refused(`${bot.url}/readyz`)).toBe(true);
    } finally {
      await bot.close();
    }
  });

  it('gives up on a handler that outlasts the grace period, and says so', async () => {
    const bot = await startTestBot({ emulator: { latencyMs: 3000 }, shutdownGraceMs: 100 });
    try {
      await bot.link('ada');
      await bot.send(bot.requests.slashCommand({ text: 'list' }));
      const started = Date.now();
      await bot.stop();
      expect(Date.now() - started).toBeLessThan(2000);
      const stopped = bot
        .logText()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; abandonedRequests?: number })
        .find((line) => line.msg === 'bot stopped');
      expect(stopped?.abandonedRequests).toBe(1);
      expect(bot.logText()).toContain('stopped waiting for Slack requests still being handled');
    } finally {
      await bot.close();
    }
  });

  it("gives up the scheduler's watch leases, so another replica takes the watches over at once", async () => {
    const clock = createFakeClock();
    const bot = await startTestBot({ emulator: { now: clock.now } });
    try {
      await bot.link('ada');
      await bot.send(bot.requests.slashCommand({ text: 'start ada-cpu-box' }));
      const [watch] = await eventually(async () => {
        const active = await bot.store.watches.listActive({ machineId: 'psada002' });
        return active.length > 0 ? active : undefined;
      });
      if (watch === undefined) throw new Error('no watch');
      await bot.scheduler.tick();
      expect(await bot.store.watchLeases.holderOf(watch)).toBe('test-bot');

      await bot.stop();
      expect(await bot.store.watches.get(watch.id)).toMatchObject({ status: 'active' });
      expect(await bot.store.watchLeases.holderOf(watch)).toBeNull();
    } finally {
      await bot.close();
    }
  });
});
