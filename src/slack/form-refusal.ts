// When Paperspace refuses what a form asked for after the ack (Slack's 3 seconds allow no API call
// that changes something), the form comes back with everything typed and the reason under the field
// it is about, so the person corrects one value and sends it again. Paperspace names the parameter it
// refuses in its message ("networkId: network … is in NY2", "assignPublicIp and dynamicPublicIp cannot
// be combined"); a refusal that names none is shown above the form. If the person closed the form
// meanwhile, the reason reaches them as a message instead.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { failureText } from '../errors/user-message.js';
import { PaperspaceApiError, PaperspaceConflictError, RequestValidationError } from '../paperspace/errors.js';
import { type RefillRequest, refilledForm, type SubmittedView } from './block-kit/form-refill.js';
import { errorMessage } from './block-kit/messages.js';
import type { SlackMessage } from './block-kit/text.js';

export interface FormRefusal {
  client: WebClient;
  /** The view that was submitted (and since replaced by a "⏳ …" view with the same id). */
  view: SubmittedView & { id: string };
  error: unknown;
  /** Parameter name -> the block of the field that holds it. */
  fieldBlockIds: Readonly<Record<string, string>>;
  secretBlockIds?: readonly string[];
  /** The parameter a conflict (409, e.g. a name already taken) is about, when Paperspace does not name it. */
  conflictParameter?: string;
  logger: Logger;
  /** Tells the submitter privately, when the form is gone. */
  tell: (message: SlackMessage) => Promise<void>;
}

export async function putFormBack(refusal: FormRefusal): Promise<void> {
  const reason = failureText(refusal.error, refusal.logger);
  const placed = placeRefusal(
    refusal.error,
    reason,
    refusal.fieldBlockIds,
    refusal.view,
    refusal.conflictParameter,
  );
  const form: RefillRequest = {
    view: refusal.view,
    problems: placed.problems,
    ...(placed.notice === undefined ? {} : { notice: placed.notice }),
    ...(refusal.secretBlockIds ? { secretBlockIds: refusal.secretBlockIds } : {}),
  };
  try {
    await refusal.client.views.update({ view_id: refusal.view.id, view: refilledForm(form) });
  } catch (error) {
    refusal.logger.info({ err: error }, 'form gone before its refusal; telling the person privately');
    await refusal.tell(errorMessage(reason));
  }
}

/** The refusal under the field(s) it names, or above the form when it names none the form has. */
function placeRefusal(
  error: unknown,
  reason: string,
  fieldBlockIds: Readonly<Record<string, string>>,
  view: Pick<SubmittedView, 'state'>,
  conflictParameter?: string,
): { problems: Record<string, string>; notice?: string } {
  const present = (parameter: string) => {
    const blockId = fieldBlockIds[parameter];
    return blockId !== undefined && view.state.values[blockId] !== undefined ? blockId : undefined;
  };
  const problems: Record<string, string> = {};
  if (error instanceof RequestValidationError) {
    for (const issue of error.issues) {
      const blockId = present(issue.field);
      if (blockId === undefined) return { problems: {}, notice: reason };
      const sentence = `${issue.field} ${issue.message}.`;
      problems[blockId] = problems[blockId] ? `${problems[blockId]} ${sentence}` : sentence;
    }
    return { problems };
  }
  const said = error instanceof PaperspaceApiError ? error.serverMessage : undefined;
  const named =
    (error instanceof PaperspaceApiError ? error.parameter : undefined) ??
    (said === undefined ? undefined : firstNamedParameter(said, Object.keys(fieldBlockIds))) ??
    (error instanceof PaperspaceConflictError ? conflictParameter : undefined);
  const blockId = named === undefined ? undefined : present(named);
  return blockId === undefined ? { problems, notice: reason } : { problems: { [blockId]: reason } };
}

function firstNamedParameter(message: string, parameters: readonly string[]): string | undefined {
  let first: { parameter: string; at: number } | undefined;
  for (const parameter of parameters) {
    const at = message.search(new RegExp(`\\b${parameter}\\b`));
    if (at >= 0 && (first === undefined || at < first.at)) first = { parameter, at };
  }
  return first?.parameter;
}
