import { UserFacingError } from './user-facing-error.js';

/**
 * A button value, form field or private_metadata that came back from Slack in a shape the bot never
 * writes: a client (or a person replaying a request) can send anything there. Nothing was done with
 * it, and the person is told so in words, naming the part that was wrong, instead of getting Slack's
 * generic failure or a reference to quote for what is not a bug of ours.
 */
export class MalformedPayloadError extends UserFacingError {
  override name = 'MalformedPayloadError';

  constructor(
    /** What was malformed, e.g. "Modal private_metadata" or "the release checkbox". */
    readonly part: string,
    /** Why, for the log (may quote the value; never shown to the person). */
    readonly detail: string,
  ) {
    super(
      `Slack sent back ${part} in a form I never write, so I did nothing with it. ` +
        'Run the command again for a fresh message or form.',
    );
  }
}
