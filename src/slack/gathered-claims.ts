// The request guard's claims (request-guard.ts), gathered before they go to the store. On SQLite the
// writes made in one turn of the event loop commit as one transaction (sqlite-client.ts), but a burst
// of Slack requests finishes arriving about one per turn, so nearly every claim would be a transaction
// of its own, its CPU spent before that request's ack. Gathered for a few milliseconds, they reach the
// store in one turn and commit together. PostgreSQL takes them as concurrent queries, as before.

/** How long claims are gathered: the most a request's ack waits for this. */
export const CLAIM_GATHER_MS = 5;

/** The store's claim: true for the first caller on any replica, false for a replay. */
type Claim = (signatureHash: string, expiresAt: number) => Promise<boolean>;

interface GatheredClaim {
  hash: string;
  expiresAt: number;
  answer: (first: Promise<boolean>) => void;
}

/**
 * `claim`, with the claims asked for within CLAIM_GATHER_MS of the first sent to it in one turn of
 * the event loop. Each caller learns its own claim's answer (or failure), once the store gave it.
 */
export function gatheredClaims(claim: Claim): Claim {
  let gathering: GatheredClaim[] | undefined;
  return (signatureHash, expiresAt) =>
    new Promise<boolean>((resolve) => {
      if (gathering === undefined) {
        const gathered: GatheredClaim[] = [];
        gathering = gathered;
        setTimeout(() => {
          gathering = undefined;
          for (const { hash, expiresAt: until, answer } of gathered) answer(claim(hash, until));
        }, CLAIM_GATHER_MS);
      }
      gathering.push({ hash: signatureHash, expiresAt, answer: resolve });
    });
}
