/**
 * A failure whose message is written for the person who asked: shown in Slack as it is. Services
 * throw it for problems of the request itself (no machine by that name, a name that matches two
 * machines, a confirmation that did not match), never for bugs.
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
}
