import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/**
 * `shared/` beside the checkout holds real tool output and Hatchet reference values. It exists only
 * inside the development workplace, so every test that reads it must skip when it is absent.
 */
export const SHARED_DIR = process.env.HPC_LENS_SHARED_DIR ?? resolve(REPO_ROOT, '..', 'shared');

export function sharedPath(...parts: string[]): string {
  return join(SHARED_DIR, ...parts);
}

/** `false` when the folder exists (so tests run), else a skip reason for node:test. */
export function skipUnlessShared(...parts: string[]): false | string {
  return existsSync(sharedPath(...parts))
    ? false
    : `shared data not present (${relative(REPO_ROOT, sharedPath(...parts))})`;
}

/** Files under a shared folder whose names end with `suffix`, relative to that folder, sorted. */
export function sharedFiles(folder: string, suffix: string): string[] {
  const root = sharedPath(folder);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith(suffix)) out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}
