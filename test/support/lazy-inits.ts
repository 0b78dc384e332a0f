import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

/** The global a bundle instrumented by {@link instrumentLazyInits} notes evaluated modules in. */
export const EVALUATED = '__evaluated';

/**
 * Makes each module of `modules` (paths ending `<folder>/<name>.ts`, e.g. `formats/cube`) note
 * that its top-level code ran, in the bundle `script` (esbuild.mjs's way: one CommonJS file). Each must
 * be one lazy module init in it — `var init_<name> = __esm({ "<path>.ts"() { … } })` — which an
 * `import()` makes and a static import from the bundle's eager code would not: that fails here.
 * The bundle then lists what ran in `globalThis.__evaluated`, in order.
 */
export function instrumentLazyInits(script: string, modules: readonly string[]): void {
  let text = readFileSync(script, 'utf8');
  for (const module of modules) {
    const init = new RegExp(`("[^"]*/${module}\\.ts"\\(\\) \\{)`, 'g');
    const found = text.match(init)?.length ?? 0;
    assert.equal(found, 1, `${module}: one lazy module init in the bundle (a static import would leave none)`);
    text = text.replace(init, `$1 (globalThis.${EVALUATED} ??= []).push(${JSON.stringify(module)});`);
  }
  writeFileSync(script, text);
}
