// Reading what Paperspace says when it fails: its legacy JSON error shapes and v1's {code,message,issues}, GraphQL `errors`, HTML
// from a proxy, plain text, nothing at all; and the Retry-After header in both of its forms.

/** Removes secrets from text that came from the network before it can reach a message or a log. */
export type Redactor = (text: string) => string;

const REDACTED = '[redacted]';

export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const present = secrets.filter(
    (secret): secret is string => typeof secret === 'string' && secret.length > 0,
  );
  return (text) => present.reduce((result, secret) => result.split(secret).join(REDACTED), text);
}

/** Redacts every string inside a parsed JSON value (keys included), for bodies kept on errors. */
export function redactDeep(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)]),
    );
  }
  return value;
}

export interface ParsedErrorBody {
  /** Parsed JSON, or the trimmed text when the body is not JSON, or undefined when empty. */
  body: unknown;
  serverMessage?: string;
  bodyStatus?: number;
}

const MAX_MESSAGE_CHARS = 300;
const MAX_TEXT_BODY_CHARS = 2_000;

export function parseErrorBody(rawText: string, redact: Redactor): ParsedErrorBody {
  const text = redact(rawText).trim();
  if (text === '') return { body: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const message = readableText(text);
    return {
      body: text.slice(0, MAX_TEXT_BODY_CHARS),
      ...(message ? { serverMessage: shorten(message) } : {}),
    };
  }
  return { body: json, ...messageFromJson(json) };
}

function messageFromJson(json: unknown): Omit<ParsedErrorBody, 'body'> {
  if (typeof json === 'string') return json.trim() ? { serverMessage: shorten(json.trim()) } : {};
  if (!isRecord(json)) return {};
  // {"error":{"name":"Error","status":404,"message":"..."}}
  if (isRecord(json.error)) {
    return withFields(json.error.message, json.error.status);
  }
  // v1: {"code":"BAD_REQUEST","message":"Invalid input","details":{...}}; a validation failure lists
  // what was wrong as issues [{message}], beside the message (tRPC's adapter) or in the OpenAPI's only
  // free-form field, details. The issues follow the message.
  const listed = Array.isArray(json.issues)
    ? json.issues
    : isRecord(json.details) && Array.isArray(json.details.issues)
      ? json.details.issues
      : undefined;
  if (typeof json.message === 'string' && listed !== undefined) {
    const issues = listed
      .map((entry) => (isRecord(entry) && typeof entry.message === 'string' ? entry.message.trim() : ''))
      .filter(Boolean);
    const message = [json.message.trim(), ...issues].filter(Boolean).join('; ');
    return withFields(message, json.status);
  }
  // {"status":400,"message":"Invalid API token"}
  if (typeof json.message === 'string') return withFields(json.message, json.status);
  // GraphQL: {"errors":[{"message":"..."}]}
  if (Array.isArray(json.errors)) {
    const messages = json.errors
      .map((entry) => (isRecord(entry) && typeof entry.message === 'string' ? entry.message.trim() : ''))
      .filter(Boolean);
    return messages.length > 0 ? { serverMessage: shorten(messages.join('; ')) } : {};
  }
  if (typeof json.error === 'string') return withFields(json.error, json.status);
  return {};
}

function withFields(message: unknown, status: unknown): Omit<ParsedErrorBody, 'body'> {
  return {
    ...(typeof message === 'string' && message.trim() ? { serverMessage: shorten(message.trim()) } : {}),
    ...(typeof status === 'number' ? { bodyStatus: status } : {}),
  };
}

/** HTML error pages say what happened in their title or first heading; text is kept as is. */
function readableText(text: string): string {
  if (!/<[a-z!/][^>]*>/i.test(text)) return collapse(text);
  const heading = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text);
  const source = heading?.[1] ?? text.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  return collapse(source.replace(/<[^>]*>/g, ' '));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined if unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
