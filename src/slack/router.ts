// Where the listeners register. Bolt runs the middleware chain of every listener it knows for every
// request and lets each one decide whether the request is its own, so twenty buttons and modals cost
// twenty chains per click, all on the event loop that also has to ack the requests queued behind it.
// Here buttons, modals, events and Workflow Builder steps register by id instead, and Bolt gets one
// listener per surface that finds the right one in a Map: one chain per request however many buttons,
// events and steps the bot grows (a listener of its own for each event and each step would add a chain
// per request for each of them, and their garbage).
//
// The single listener also answers what no listener owns, which Bolt would leave unacked (Slack then
// shows the clicker an error after 3 s): a button on a message posted by an older version of the bot,
// whose action_id has since been renamed or removed.
import type {
  App,
  BlockAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { errorMessage } from './block-kit/messages.js';
import { answerActionFailures, answerCommandFailures, answerViewFailures } from './failure-answers.js';
import type { PlatformDeps } from './platform-deps.js';

type ActionListener<A extends BlockAction = BlockAction> = Middleware<SlackActionMiddlewareArgs<A>>;
type ViewListener = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;
type EventListener = Middleware<SlackEventMiddlewareArgs>;
type StepListener = Middleware<SlackEventMiddlewareArgs<'function_executed'>>;

/** What the listener modules register with: the same calls as Bolt's App, for the surfaces the bot uses. */
export interface ListenerRouter {
  command(name: string, listener: Middleware<SlackCommandMiddlewareArgs>): void;
  /** A block action (button, overflow) by its action_id. */
  action<A extends BlockAction>(actionId: string, listener: ActionListener<A>): void;
  /** A modal's submission by its callback_id. */
  view(callbackId: string, listener: ViewListener): void;
  event<E extends string>(name: E, listener: Middleware<SlackEventMiddlewareArgs<E>>): void;
  /** A custom step of Workflow Builder (a `function_executed` event) by its callback_id; acked by Bolt. */
  function(callbackId: string, listener: Middleware<SlackEventMiddlewareArgs<'function_executed'>>): void;
}

/** Told to a person who clicks a button no listener owns. */
export const STALE_BUTTON_TEXT =
  'This button belongs to an older version of this message and no longer does anything. Run the command again for a fresh one.';

/**
 * Registers the dispatching listeners on `app` and answers the router the listener modules register
 * with. The command goes to Bolt as it is: the bot has one, so there is nothing to save.
 */
export function createListenerRouter(app: App, deps: Pick<PlatformDeps, 'logger' | 'pacer'>): ListenerRouter {
  const { logger, pacer } = deps;
  const actions = new Map<string, ActionListener>();
  const views = new Map<string, ViewListener>();
  const events = new Map<string, EventListener>();
  const steps = new Map<string, StepListener>();

  app.action<BlockAction>({ type: 'block_actions' }, async (args) => {
    const actionId = args.action.action_id;
    const listener = actions.get(actionId);
    if (listener !== undefined) return listener(args);
    await args.ack();
    const { user, response_url: responseUrl } = args.body;
    logger.warn({ actionId, user: user.id }, 'a click on a button no listener owns');
    const answer = errorMessage(STALE_BUTTON_TEXT);
    // Only the clicker is told: ephemeral where the message is, in their DM from the Home tab or a modal.
    if (responseUrl) await args.respond({ response_type: 'ephemeral', replace_original: false, ...answer });
    // In the DM's lane of the bot's pacer, like every other post there.
    else await pacer.message(user.id, () => args.client.chat.postMessage({ channel: user.id, ...answer }));
  });
  app.view<ViewSubmitAction>({ type: 'view_submission' }, async (args) => {
    const callbackId = args.view.callback_id;
    const listener = views.get(callbackId);
    if (listener !== undefined) return listener(args);
    // Acking closes the modal; there is nothing else to tell from a form no listener reads.
    await args.ack();
    logger.warn({ callbackId, user: args.body.user.id }, 'a modal submitted that no listener owns');
  });

  // Every event type. Bolt acks an event before any listener runs, except a step's function_executed,
  // which it leaves to the listener: acked here at once, as Bolt's own app.function() does.
  app.event(/.*/, async (args) => {
    if (args.event.type !== 'function_executed') return events.get(args.event.type)?.(args);
    const stepArgs = args as unknown as Parameters<StepListener>[0];
    await stepArgs.ack();
    const callbackId = stepArgs.event.function.callback_id;
    const listener = steps.get(callbackId);
    if (listener !== undefined) return listener(stepArgs);
    // A step removed from the app while a workflow still names it: acked, so Slack does not resend it.
    logger.warn({ callbackId }, 'a workflow step ran that no listener owns');
  });

  const claim = <L>(registry: Map<string, L>, kind: string, id: string, listener: L) => {
    // Two listeners for one id would be a bug in this code base: Bolt would have run both.
    if (registry.has(id)) throw new Error(`createListenerRouter: ${kind} ${id} already has a listener`);
    registry.set(id, listener);
  };
  return {
    command: (name, listener) => app.command(name, answerCommandFailures(listener, logger)),
    action: (actionId, listener) =>
      // Bolt narrows a listener's payload type the same unchecked way: the action_id decides it.
      claim(actions, 'action', actionId, answerActionFailures(listener as unknown as ActionListener, deps)),
    view: (callbackId, listener) => claim(views, 'view', callbackId, answerViewFailures(listener, logger)),
    event: (name, listener) => claim(events, 'event', name, listener as unknown as EventListener),
    function: (callbackId, listener) => claim(steps, 'step', callbackId, listener),
  };
}
