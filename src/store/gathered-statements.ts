// Writes of one kind asked for while the last statement of that kind is still running go together in
// the next one, as PostgreSQL's group commit does for commits. Each completion writes four single-row
// statements (finish the watch, the report's sending, its delivery, the channel's post slot); in a
// burst of completions each would wait for one of the pool's connections behind all the others, and
// the completion for all four in turn. Gathered, a burst of a thousand is a few statements; a lone
// write still goes at once, with nothing added but a microtask. No timer is involved, so fake clocks in tests cannot hold a write back.
import DataLoader from 'dataloader';

/** One call per item; each resolves with its item's result once the statement carrying it has run. */
export type Gathered<Item, Result> = (item: Item) => Promise<Result>;

/**
 * `run` takes the items gathered (at most `maxItems`, in the order asked) and answers one result per
 * item, in the same order; a failure fails every item it carried.
 */
export function gatherStatements<Item, Result>(
  run: (items: readonly Item[]) => Promise<readonly Result[]>,
  maxItems: number,
): Gathered<Item, Result> {
  const running = new Set<Promise<unknown>>();
  const loader = new DataLoader<Item, Result>(
    (items) => {
      const statement = run(items);
      const settled: Promise<unknown> = statement.then(forget, forget);
      function forget() {
        running.delete(settled);
      }
      running.add(settled);
      return statement;
    },
    {
      // Every write goes to the store: nothing is kept, and equal items are separate writes.
      cache: false,
      maxBatchSize: maxItems,
      // The next statement waits for the running ones, gathering what is asked meanwhile.
      batchScheduleFn: (send) => {
        void Promise.all(running).then(send);
      },
    },
  );
  return (item) => loader.load(item);
}
