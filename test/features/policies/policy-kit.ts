// What the policies' end-to-end tests share: a slash command answered, and a scheduler tick at a moment
// of the emulator's clock (the cost guard dates runs, the policies warn and stop, on ticks).
import type { createFakeClock } from '../../../tools/emulator/index.js';
import type { TestBot } from '../../support/test-bot.js';

export function policyDriver(bot: TestBot, clock: Pick<ReturnType<typeof createFakeClock>, 'set'>) {
  return {
    async command(text: string, userId: string) {
      const request = bot.requests.slashCommand({ text, userId });
      await bot.send(request);
      return bot.slack.waitForResponse(request.responseUrlId ?? '');
    },
    async tickAt(iso: string): Promise<void> {
      clock.set(Date.parse(iso));
      await bot.scheduler.tick();
    },
  };
}
