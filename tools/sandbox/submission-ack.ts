// A view_submission's acknowledgement, applied to the person's open modals as Slack applies it.
import { viewProblems } from './block-kit-rules.js';
import { isRecord } from './http-util.js';
import type { ViewStacks } from './view-stacks.js';

/**
 * Applies the app's answer to a view_submission as Slack does; returns why Slack would refuse it.
 * An empty ack closes the submitted view (the one below shows again); `errors` marks input blocks;
 * `update` replaces the view; `push` stacks a new one; `clear` closes them all.
 */
export function applySubmissionAck(
  views: ViewStacks,
  userId: string,
  viewId: string,
  blocks: unknown[],
  body: unknown,
): string | undefined {
  if (body === '' || body === undefined || (isRecord(body) && body.response_action === undefined)) {
    views.closeTop(userId);
    return undefined;
  }
  if (!isRecord(body)) return 'the acknowledgement is neither empty nor JSON';
  switch (body.response_action) {
    case 'errors': {
      const errors = isRecord(body.errors) ? body.errors : {};
      if (Object.keys(errors).length === 0) return 'response_action "errors" needs a non-empty errors object';
      const inputs = new Set(
        blocks
          .filter(isRecord)
          .filter((block) => block.type === 'input')
          .map((b) => b.block_id),
      );
      const unknown = Object.keys(errors).filter((blockId) => !inputs.has(blockId));
      if (unknown.length > 0)
        return `errors name ${unknown.join(', ')}, which is no input block_id of this view`;
      views.setErrors(
        viewId,
        Object.fromEntries(Object.entries(errors).map(([id, text]) => [id, String(text)])),
      );
      return undefined;
    }
    case 'update':
    case 'push': {
      const problems = viewProblems(body.view);
      if (problems.length > 0 || !isRecord(body.view)) return `the view is invalid: ${problems.join('; ')}`;
      if (body.view.type !== 'modal') return 'the view must be a modal';
      const result =
        body.response_action === 'update'
          ? views.update({ viewId }, body.view)
          : views.push(userId, body.view);
      return typeof result === 'string' ? result : undefined;
    }
    case 'clear':
      views.clear(userId);
      return undefined;
    default:
      return `unknown response_action ${JSON.stringify(body.response_action)}`;
  }
}
