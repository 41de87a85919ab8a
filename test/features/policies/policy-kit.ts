// What the policies' end-to-end tests share: a slash command answered, a scheduler tick at a moment
// of the emulator's clock (the cost guard dates runs, the policies warn and stop, on ticks), the DMs
// a policy sends, a click on one of their buttons, and the notice a newly linked key gets.
import { expect } from 'vitest';
import type { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { type TestBot, USERS } from '../../support/test-bot.js';
import { submitLogin } from '../account/helpers.js';

type ButtonBlock = { elements?: { action_id?: string; value?: string }[] };

export function policyDriver(bot: TestBot, clock: Pick<ReturnType<typeof createFakeClock>, 'set'>) {
  /** Sends a click on `message`'s button; answers where the message is. */
  async function send(message: ApiCall, actionId: string, userId: string) {
    const button = ((message.args.blocks ?? []) as ButtonBlock[])
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === actionId);
    const place = { channel: String(message.answer?.channel), ts: String(message.answer?.ts) };
    await bot.send(
      bot.requests.blockAction({
        actionId,
        userId,
        value: button?.value ?? '',
        blockId: 'policy_actions',
        channelId: place.channel,
        message: { ts: place.ts, text: String(message.args.text), blocks: message.args.blocks as unknown[] },
      }),
    );
    return place;
  }

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
    /** The DMs to `userId` about `machine` whose text says `words`. */
    dmsTo(userId: string, machine: { name: string }, words: string): ApiCall[] {
      return bot.slack
        .calls('chat.postMessage')
        .filter((call) => call.args.channel === userId)
        .filter((call) => {
          const text = messageText(call.args);
          return text.includes(`*${machine.name}*`) && text.includes(words);
        });
    },
    send,
    /** Clicks `message`'s button and answers the message as the click redrew it. */
    async click(message: ApiCall, actionId: string, userId: string): Promise<ApiCall> {
      const before = bot.slack.calls('chat.update').length;
      const place = await send(message, actionId, userId);
      const update = () =>
        bot.slack
          .calls('chat.update')
          .slice(before)
          .find((call) => call.args.ts === place.ts);
      await expect.poll(update).toBeDefined();
      return update() as ApiCall;
    },
  };
}

/** Sam links his key through the login form; answers the text of the "is now linked" message he gets. */
export async function samLinksAndReadsNotice(bot: TestBot): Promise<string> {
  const before = bot.slack.calls('chat.postMessage').length;
  await submitLogin(bot, USERS.sam.slackId, {
    apiKey: USERS.sam.apiKey,
    accessToken: USERS.sam.accessToken,
    email: USERS.sam.email,
  });
  const notice = () =>
    bot.slack
      .calls('chat.postMessage')
      .slice(before)
      .map((call) => messageText(call.args))
      .find((text) => text.includes('is now linked'));
  await expect.poll(notice).toBeDefined();
  return notice() ?? '';
}
