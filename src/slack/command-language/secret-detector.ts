// Spots an API key or token pasted where it does not belong (a slash command, a message), so the bot
// can refuse it before it is parsed, stored, logged or echoed. Paperspace API keys are long random
// hex or alphanumeric strings; Slack tokens and bearer headers have recognisable prefixes.
// False positives cost a person a retyped command; false negatives leak a key, so the rules lean
// towards flagging random-looking strings while leaving ordinary command text alone: machine ids
// (psl0b3hq8), names, key=value pairs, cron fields, Slack mentions, dates, UUIDs and plain URLs.

/** Slack tokens: bot/user/app/refresh/config tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxe-, xoxs-) and app-level (xapp-). */
const SLACK_TOKEN = /\bxox[abeprs](?:\.xox[abeprs])?-[A-Za-z0-9-]{8,}|\bxapp-\d-[A-Za-z0-9-]{8,}/;
/** An Authorization header value: `Bearer` and a long credential (not "bearer instrument"). */
const BEARER = /\bbearer\s+([A-Za-z0-9._~+/-]{16,})/gi;
/** A labelled key: `X-Api-Key: ...`, `api_key=...`, `access-token: ...`. */
const LABELLED_KEY =
  /\b(?:x-api-key|api[-_]?key|access[-_]?token|secret[-_]?key)["']?\s*[:=]\s*["']?[A-Za-z0-9._~+/-]{8,}/i;
/** A JSON Web Token: three base64url parts, the first two starting with `{"` encoded. */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/;

/** Characters that cannot be part of a key: where the text is cut into candidates. */
const SEPARATORS = /[\s"'`“”‘’<>|=:,;()[\]{}/\\?&#@!]+/u;
const HEX_KEY = /^[0-9a-fA-F]{32,}$/;
const KEY_ALPHABET = /^[A-Za-z0-9_-]{24,}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A random-looking run: at least 24 characters of [A-Za-z0-9_-] with one stretch of 16 or more
 * between `-`/`_` (so hyphenated names like `my-long-machine-name-2024-v2` pass), holding letters and
 * digits that alternate several times (so `supercalifragilistic2024` passes).
 */
function looksRandom(candidate: string): boolean {
  if (!KEY_ALPHABET.test(candidate) || UUID.test(candidate)) return false;
  const longestStretch = candidate.split(/[-_]/).reduce((longest, part) => Math.max(longest, part.length), 0);
  if (longestStretch < 16) return false;
  let switches = 0;
  let previous: 'digit' | 'letter' | null = null;
  for (const ch of candidate) {
    const kind = ch >= '0' && ch <= '9' ? 'digit' : /[A-Za-z]/.test(ch) ? 'letter' : null;
    if (kind !== null && previous !== null && kind !== previous) switches++;
    if (kind !== null) previous = kind;
  }
  return switches >= 4;
}

/** Whether `text` contains something that looks like an API key, access token or bearer credential. */
export function looksLikeSecret(text: string): boolean {
  if (SLACK_TOKEN.test(text) || LABELLED_KEY.test(text) || JWT.test(text)) return true;
  for (const [, credential = ''] of text.matchAll(BEARER)) {
    if (/\d/.test(credential) && /[A-Za-z]/.test(credential)) return true;
  }
  return text.split(SEPARATORS).some((candidate) => HEX_KEY.test(candidate) || looksRandom(candidate));
}
