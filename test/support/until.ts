import assert from 'node:assert/strict';

/** Resolves once `check()` holds, polling every 5 ms; fails naming `what` after `limitMs` (default 10 s). */
export async function until(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 5));
  }
}
