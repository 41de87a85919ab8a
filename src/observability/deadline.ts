// Health checks and scrapes must answer even when what they look at hangs (a database that accepts the
// connection and never replies): every such look is bounded.

export class DeadlineExceededError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'DeadlineExceededError';
  }
}

/** `work`'s result, or a DeadlineExceededError naming `what` once `ms` pass first. */
export async function withinDeadline<T>(what: string, ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError(what, ms)), ms);
  });
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
