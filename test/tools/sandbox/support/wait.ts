// Polls until a probe finds something: effects that follow an acknowledgement (respond, chat.update)
// arrive a moment after the request that caused them.

export async function waitFor<T>(
  probe: () => T | undefined,
  what: string,
  { timeoutMs = 3000 }: { timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
