// The audit note an approved request's action is recorded with. Spend reads it back to tell whom a
// machine was created for, since Paperspace v1 names no owner: the note is the one place that ties
// the created machine (the record's resource) to the request, and so to the person who asked.

/** `approved request <id> of <requester>`: the request's id first, so it can be read back. */
export function approvedRequestNote(request: { id: string; requesterId: string }): string {
  return `approved request ${request.id} of ${request.requesterId}`;
}

/** The request id in a note approvedRequestNote wrote; undefined for any other text. */
export function approvedRequestIdIn(note: string | null): string | undefined {
  return /^approved request (\S+) of /.exec(note ?? '')?.[1];
}

/** The requester's Slack user id in a note approvedRequestNote wrote; undefined for any other text. */
export function approvedRequesterIn(note: string | null): string | undefined {
  return /^approved request \S+ of (\S+)$/.exec(note ?? '')?.[1];
}
