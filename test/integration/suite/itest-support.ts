/** The extension's id as the integration suites look it up. */
export const EXTENSION_ID = 'hpc-lens.hpc-lens';

/** Polls `f` every 100 ms until it yields a truthy value, or fails after `ms`. */
export async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}
