import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { lineCosts } from '../../../src/analysis/model/aggregates';

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

/**
 * How many lines of files ending in `fileSuffix` should carry heat for a profile: lines with own
 * cost whose share of the total passes `hpcLens.heat.minShare`, computed straight from the model.
 */
export async function expectedHeatLines(profilePath: string, fileSuffix: string): Promise<number> {
  const profile = await readProfile(profilePath);
  const m = profile.primaryMetric;
  const total = profile.total(m);
  const minShare = vscode.workspace.getConfiguration('hpcLens').get<number>('heat.minShare', 0.001);
  let expected = 0;
  for (const [file, lines] of lineCosts(profile, m)) {
    if (file.endsWith(fileSuffix)) expected += lines.filter(l => l.exclusive > 0 && l.exclusive / total >= minShare).length;
  }
  return expected;
}
