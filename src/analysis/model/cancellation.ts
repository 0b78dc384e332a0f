/**
 * Cooperative cancellation for long analyses: loops over nodes, events or files check the caller's
 * AbortSignal between steps and stop with an `AbortError`, which every caller recognises with
 * {@link isAbortError}. Kept at the bottom layer so readers, graphs and analyses share one rule.
 */

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const e = new Error('the operation was cancelled');
    e.name = 'AbortError';
    throw e;
  }
}

export function isAbortError(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError';
}
