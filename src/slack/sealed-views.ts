// Where the metadata seal (metadata-seal.ts) is applied: every view the bot sends goes out through the
// Web API client's fetch, which seals its private_metadata, and every request carrying a view comes in
// through one middleware, which opens it before any listener reads it. Sealing at the transport rather
// than in each modal builder means a new modal cannot forget it, and the builders stay pure.
import type { AnyMiddlewareArgs, Middleware, SlackViewMiddlewareArgs, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { statusModal } from './block-kit/status-modal.js';
import type { MetadataSeal } from './metadata-seal.js';

/** The Web API methods whose `view` argument carries private_metadata. */
const VIEW_METHODS = new Set(['views.open', 'views.push', 'views.update', 'views.publish']);

/** The words a person reads when a form or button came back with metadata this bot did not write. */
export const FORGED_METADATA_TEXT =
  'This form is not valid: what it carried was changed on its way back, so I did nothing with it. Close it and start again.';

/** Wraps the Web API client's fetch so that each view's private_metadata leaves sealed. */
export function sealingFetch(seal: MetadataSeal, inner: webApi.FetchFunction): webApi.FetchFunction {
  return (url, init) => {
    const method = new URL(url).pathname.split('/').pop() ?? '';
    if (!VIEW_METHODS.has(method) || typeof init?.body !== 'string') return inner(url, init);
    const form = new URLSearchParams(init.body);
    const view = form.get('view');
    if (view === null) return inner(url, init);
    const parsed = JSON.parse(view) as { private_metadata?: unknown };
    if (typeof parsed.private_metadata !== 'string' || parsed.private_metadata === '')
      return inner(url, init);
    parsed.private_metadata = seal.seal(parsed.private_metadata);
    form.set('view', JSON.stringify(parsed));
    return inner(url, { ...init, body: form.toString() });
  };
}

interface ViewCarrier {
  type?: string;
  user?: { id?: string };
  view?: { id?: string; callback_id?: string; private_metadata?: string };
}

/**
 * Opens the sealed private_metadata of a view submission, a closed view or a click inside a modal, so
 * that listeners read what the bot wrote. A view whose metadata is not sealed by this bot goes no
 * further: the person is told the form is not valid, and the refusal is logged without its content.
 */
export function openSealedMetadata(seal: MetadataSeal, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body = args.body as ViewCarrier;
    const view = body.view;
    const sealed = view?.private_metadata;
    if (view === undefined || sealed === undefined || sealed === '') {
      await args.next();
      return;
    }
    const payload = seal.open(sealed);
    if (payload !== undefined) {
      view.private_metadata = payload;
      await args.next();
      return;
    }
    logger.warn(
      { type: body.type, callbackId: view.callback_id, userId: body.user?.id },
      'refused a view whose private_metadata this bot did not seal',
    );
    const notValid = statusModal({ title: 'Not valid', text: FORGED_METADATA_TEXT, close: 'Close' });
    if (body.type === 'view_submission') {
      // A global middleware's args are the union of every kind of request; this one is a view's.
      await (args as unknown as SlackViewMiddlewareArgs).ack({ response_action: 'update', view: notValid });
      return;
    }
    if ('ack' in args) await args.ack?.();
    if (body.type === 'block_actions' && view.id !== undefined)
      await args.client.views.update({ view_id: view.id, view: notValid });
  };
}
