// The end of a "Request a machine" step's run, told by the approvals feature when a request it opened
// is decided (approvals/request-settled.ts): completeSuccess with the created machine, or completeError
// with the sentence a workflow's runner needs. Requests no step opened are none of its business.
// Slack refusing a second completion means the run had already ended: nothing more to do.

import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { StoredRequest } from '../../store/approval-requests.js';
import type { RequestEnd, RequestSettled } from '../approvals/request-settled.js';
import { runAlreadyEnded } from '../watches/step-completion.js';

/** The step's error, as mrkdwn: the deciders are mentioned, what people typed is escaped. */
function failureOf(request: StoredRequest, end: Exclude<RequestEnd, { status: 'approved' }>): string {
  const subject = `the request for ${escapeMrkdwn(request.machineName ?? 'a machine')}`;
  switch (end.status) {
    case 'denied':
      return `<@${end.by}> denied ${subject}${end.reason ? `: “${escapeMrkdwn(end.reason)}”` : '.'}`;
    case 'withdrawn':
      return `<@${end.by}> withdrew ${subject}.`;
    case 'expired':
      return `${capitalized(subject)} expired before anyone decided it.`;
    case 'failed':
      return `<@${end.by}> approved ${subject}, but the create failed: ${escapeMrkdwn(end.reason)}`;
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const completeRequestStep: RequestSettled = async ({ web, logger }, request, end) => {
  const execution = request.functionExecutionId;
  if (!execution) return;
  try {
    if (end.status === 'approved') {
      const { machine } = end;
      await web.functions.completeSuccess({
        function_execution_id: execution,
        outputs: { machine_id: machine.id, machine_name: machine.name, state: machine.state },
      });
    } else {
      await web.functions.completeError({ function_execution_id: execution, error: failureOf(request, end) });
    }
  } catch (error) {
    if (!runAlreadyEnded(error)) throw error;
    logger.info({ requestId: request.id, execution }, 'the step of a request had already ended');
  }
};
