// A client whose parts are each built the first time they are read, then kept on it. A client is
// built for every request and every watch poll of every person (keys are kept, clients are not:
// features/watches/person-keys.ts), and a poll reads only `machines`: building every resource, each a
// set of closures, for every poll of the interval would be most of a client's cost and of its garbage.
// Both dialects (legacy/client.ts, v1/client.ts) are a table of their parts over this.
import type { PaperspaceClient } from './resources.js';

/** How each part of a dialect's client is made from that dialect's context. */
export type ClientParts<Context> = {
  [Part in keyof PaperspaceClient]: (context: Context) => PaperspaceClient[Part];
};

const CONTEXT = Symbol('client context');

/** A maker of clients whose parts come from `parts` on first read; the getters are shared by all of them. */
export function clientsBuiltOnUse<Context>(
  parts: ClientParts<Context>,
): (context: Context) => PaperspaceClient {
  class Client {
    readonly [CONTEXT]: Context;
    constructor(context: Context) {
      this[CONTEXT] = context;
    }
  }
  for (const part of Object.keys(parts) as (keyof PaperspaceClient)[]) {
    Object.defineProperty(Client.prototype, part, {
      enumerable: true,
      get(this: Client) {
        const value = parts[part](this[CONTEXT]);
        // Kept on the client itself: later reads find it there and never come back here.
        Object.defineProperty(this, part, { value, enumerable: true });
        return value;
      },
    });
  }
  // Its parts are the getters defined just above, which TypeScript cannot see on the class.
  return (context) => new Client(context) as unknown as PaperspaceClient;
}
