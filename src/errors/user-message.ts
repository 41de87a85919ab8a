// Turns any failure into one sentence for the person who asked. Failures we expect (the API said no,
// the machine name was ambiguous) already carry such a sentence; anything else is a bug, which is
// logged with a short reference the person can quote, and never shown raw.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { PaperspaceError } from '../paperspace/errors.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';
import { VaultError } from '../vault/vault-error.js';
import { describeError, isSlackApiError } from './describe-error.js';
import { UserFacingError } from './user-facing-error.js';

/**
 * Said when the database cannot be reached part-way through a request. Most such requests stop at the
 * key vault, before anything is asked of Paperspace, but not all (an audit write comes after the
 * change), so this does not claim that nothing happened. The request guard, which answers before any
 * work starts, can and does (request-guard.ts).
 */
const STORE_UNREACHABLE_TEXT =
  "I can't reach my database right now. Try again in a minute; if you asked for a change, `/ps list` shows whether it happened.";

export function messageForUser(error: unknown, logger: Logger): string {
  if (error instanceof UserFacingError || error instanceof PaperspaceError) return error.message;
  if (isStoreUnreachable(error)) {
    // An outage, not a bug: /readyz and the health log say so; no reference to quote.
    logger.warn({ error: describeError(error) }, 'the database could not be reached while serving a request');
    return STORE_UNREACHABLE_TEXT;
  }
  const reference = randomBytes(4).toString('hex');
  if (error instanceof VaultError) {
    // Vault messages are written for the operator (key ids, counts); the person only needs a way out.
    logger.error({ error: describeError(error), reference }, 'key vault failure while serving a request');
    return (
      `Your linked Paperspace key could not be read (reference ${reference}). ` +
      'Link it again with `/ps login`; if that fails, tell whoever runs this bot.'
    );
  }
  // describeError keeps type, message and causes only: a Slack Web API error carries the request it
  // failed on, bot token included, which must not reach the log.
  logger.error({ error: describeError(error), reference }, 'unexpected failure while serving a request');
  return `Something went wrong on our side (reference ${reference}). It has been logged; please try again.`;
}

/**
 * One sentence for the person about any failure. Slack API errors are logged through describeError
 * (never whole: they carry the request and its token) and reported with a reference to quote.
 */
export function failureText(error: unknown, logger: Logger): string {
  if (!isSlackApiError(error)) return messageForUser(error, logger);
  const reference = randomBytes(4).toString('hex');
  logger.error({ error: describeError(error), reference }, 'a Slack API call failed while serving a request');
  return `Slack refused one of my messages (reference ${reference}). It has been logged; please try again.`;
}
