// The pieces every request schema is built from. Every message reads after its field name ("size
// must be a positive whole number"), because the Slack layer shows it under the field (modals,
// `key=value` commands). Request objects are built strict (z.strictObject): a misspelt parameter is
// an error that names it, not a value silently dropped.
import { z } from 'zod';
import { REGIONS, regionCode } from '../constants.js';

type Issue = { input?: unknown };
export const mustBe = (description: string) => (issue: Issue) =>
  issue.input === undefined ? 'is required' : `must be ${description}`;

export const oneOf = (values: readonly string[]) =>
  `one of ${values.map((value) => `"${value}"`).join(', ')}`;

export const text = () =>
  z
    .string({ error: mustBe('text') })
    .trim()
    .min(1, { error: 'must not be empty' });
/** Sent exactly as given, never trimmed: a password may begin or end with a space. */
export const secretText = () =>
  z.string({ error: mustBe('text') }).refine((value) => value.trim() !== '', { error: 'must not be empty' });
export const flag = () => z.boolean({ error: mustBe('true or false') });
export const wholeNumber = (minimum: number, description: string) =>
  z
    .number({ error: mustBe(description) })
    .int({ error: `must be ${description}` })
    .min(minimum, { error: `must be ${description}` });
export const positiveWholeNumber = () => wholeNumber(1, 'a positive whole number');
export const nonNegativeWholeNumber = () => wholeNumber(0, 'a whole number, 0 or more');
export const choice = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: mustBe(oneOf(values)) });

/** A refused region names every region and the codes that may be typed for it (`CA1`, v1's `ca1`). */
export const regionSchema = z.enum(REGIONS, {
  error: mustBe(`${oneOf(REGIONS)} (or a code: ${REGIONS.map(regionCode).join(', ')})`),
});
/**
 * An id that goes into a URL path. Encoding keeps `/` and `?` from changing the path, but `.` and `..`
 * are path steps whatever their encoding: `..` as a machine id made `POST /machines/../stop` reach
 * `POST /stop`.
 */
export const pathId = () =>
  text().refine((value) => value !== '.' && value !== '..', {
    error: 'must be an id, not a path step (. or ..)',
  });

/** List filters: each optional, compared with what the API lists. */
export const filterText = () => text().optional();
export const filterNumber = () => z.number({ error: mustBe('a number') }).optional();
export const filterFlag = () => flag().optional();
