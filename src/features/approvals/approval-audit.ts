// The audit note an approved request's action is recorded with: the one place in the audit trail that
// ties a created machine (the record's resource) to the request, and so to the person who asked.
// Migration 026 read it back once to record whose such machines are (store/machine-owners.ts); a new
// create records its owner itself. Forgotten-machine alerts read the requester of an approved start.

/** `approved request <id> of <requester>`: the request's id first, so it can be read back. */
export function approvedRequestNote(request: { id: string; requesterId: string }): string {
  return `approved request ${request.id} of ${request.requesterId}`;
}

/** The requester's Slack user id in a note approvedRequestNote wrote; undefined for any other text. */
export function approvedRequesterIn(note: string | null): string | undefined {
  return /^approved request \S+ of (\S+)$/.exec(note ?? '')?.[1];
}
