// A Bolt app with no transport: a test hands it requests through processEvent, as a receiver would,
// and sees exactly what the app does with them (no HTTP, no signatures, no timing of sockets).
import { App, type Logger as BoltLogger, LogLevel } from '@slack/bolt';

export function appWithoutTransport(): App {
  const quiet: BoltLogger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    setLevel: () => undefined,
    getLevel: () => LogLevel.ERROR,
    setName: () => undefined,
  };
  const app = new App({
    receiver: { init: () => undefined, start: async () => undefined, stop: async () => undefined },
    authorize: async () => ({ botToken: 'xoxb-unit', botId: 'B0UNIT', botUserId: 'U0BOT' }),
    logger: quiet,
  });
  // A listener's failure fails the test's processEvent call instead of vanishing into Bolt's logger.
  app.error(async (error) => {
    throw error;
  });
  return app;
}

/** Hands `app` a button click, as a receiver would, with `ack` as the receiver's ack. */
export function deliverClick(
  app: App,
  click: { actionId: string; value?: string },
  ack: (response?: unknown) => Promise<void>,
): Promise<void> {
  return app.processEvent({
    body: {
      type: 'block_actions',
      team: { id: 'T0UNIT' },
      user: { id: 'U0ADA' },
      actions: [
        {
          type: 'button',
          action_id: click.actionId,
          block_id: 'b',
          action_ts: '1',
          ...(click.value === undefined ? {} : { value: click.value }),
        },
      ],
    },
    ack,
  });
}
