// Where the listeners register. Bolt runs the middleware chain of every listener it knows for every
// request and lets each one decide whether the request is its own, so twenty buttons and modals cost
// twenty chains per click, all on the event loop that also has to ack the requests queued behind it.
// Here buttons and modals register by id instead, and Bolt gets one listener per surface that finds
// the right one in a Map: one chain per request however many buttons the bot grows.
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
import type { ListenerDeps } from './listener-deps.js';

type ActionListener<A extends BlockAction = BlockAction> = Middleware<SlackActionMiddlewareArgs<A>>;
type ViewListener = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;

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
 * with. Commands, events and custom steps go to Bolt as they are: the bot has one of each kind, so
 * there is nothing to save.
 */
export function createListenerRouter(app: App, deps: Pick<ListenerDeps, 'logger' | 'pacer'>): ListenerRouter {
  const { logger, pacer } = deps;
  const actions = new Map<string, ActionListener>();
  const views = new Map<string, ViewListener>();

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
    event: (name, listener) => app.event(name, listener),
    function: (callbackId, listener) => app.function(callbackId, listener),
  };
}
