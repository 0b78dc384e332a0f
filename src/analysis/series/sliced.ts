import { throwIfAborted } from '../model/cancellation';

/**
 * Runs a step generator to its end, giving the event loop a turn every ~`sliceMs` milliseconds so
 * that an abort signal fired from elsewhere (a Cancel button, a worker message) can stop a long
 * computation: the synchronous form only sees a signal that was aborted before it started.
 */
export async function runSliced<T>(
  steps: Generator<unknown, T, void>,
  signal: AbortSignal | undefined,
  sliceMs = 20,
): Promise<T> {
  let since = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) {
      throwIfAborted(signal);
      return next.value;
    }
    if (performance.now() - since >= sliceMs) {
      await new Promise(resolve => setImmediate(resolve));
      since = performance.now();
    }
  }
}

/** Runs a step generator to its end at once. */
export function runToEnd<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
