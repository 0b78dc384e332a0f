import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { lineCosts } from '../../../src/analysis/model/aggregates';
import { writeScaledRuns as writeScaled } from '../../support/scaled-runs';

/** The extension's id as the integration suites look it up. */
export const EXTENSION_ID = 'hpc-lens.hpc-lens';

/** The sample workspace (samples/heat-stencil) the harness opens. */
export function workspaceRoot(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the sample workspace is open');
  return f.uri;
}

/** The sample's sampling profile (Caliper json-split, 4 ranks). */
export const sampleProfile = (): vscode.Uri =>
  vscode.Uri.joinPath(workspaceRoot(), 'profiles', 'heat-stencil-sampling-4ranks.json');

/** A copy of the sample profile in `dir` with every sample of `fn` taking `factor` times as long (a slower second run). */
export function slowerCopy(dir: string, fn: string, factor: number): vscode.Uri {
  const json = JSON.parse(readFileSync(sampleProfile().fsPath, 'utf8')) as {
    nodes: { label: string }[];
    columns: string[];
    data: number[][];
  };
  const fnCol = json.columns.indexOf('source.function#callpath.address');
  const timeCol = json.columns.indexOf('sum#time.duration');
  const nodes = new Set(json.nodes.flatMap((n, i) => (n.label === fn ? [i] : [])));
  for (const row of json.data) if (nodes.has(row[fnCol]!)) row[timeCol] = row[timeCol]! * factor;
  const file = join(dir, `heat-stencil-${fn}-x${factor}.json`);
  writeFileSync(file, JSON.stringify(json));
  return vscode.Uri.file(file);
}

/** Polls `f` every 100 ms until it yields a truthy value, or fails after `ms`. */
export async function until<T>(
  what: string,
  f: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15000,
): Promise<T> {
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
    if (file.endsWith(fileSuffix))
      expected += lines.filter(l => l.exclusive > 0 && l.exclusive / total >= minShare).length;
  }
  return expected;
}

/** Scaled copies of the sample's Caliper profile: runs of the same program whose source is in the workspace. */
export function writeScaledRuns(folder: string, sample: string, factors: Record<string, number>): void {
  writeScaled(sample, folder, factors);
}

/** The test API `activate` returns in test mode. */
export type { HpcLensTestApi as HpcLensApi } from '../../../src/extension/testing/test-api';

/** Fails after `ms` with `what`, unless `p` settles first. */
export function within<T>(p: Promise<T>, what: string, ms = 30000): Promise<T> {
  return Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out: ${what}`)), ms))]);
}

/** A CSS attribute selector for a node id (ids hold `/`, `.`, `#`, spaces…). */
export function nodeSelector(id: string): string {
  return `[data-node="${id.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}
