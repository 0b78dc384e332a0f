import * as path from 'node:path';
import * as vscode from 'vscode';
import { functionInclusiveByContext, functionTotals, lineCosts, type FunctionTotals, type LineCost } from '../analysis/model/aggregates';
import { diffProfiles, mergeDiffLines, type DiffLine, type ProfileDiff } from '../analysis/graph/profile-diff';
import type { Profile } from '../analysis/model/profile';
import type { SourceResolver } from './source-resolver';

/** What the overlays of one source file show. */
export interface FileOverlay {
  uri: vscode.Uri;
  /** Lines with cost, 1-based as in the profile. */
  lines: LineCost[];
  /** Functions with nodes located in this file, with a 1-based line known to be inside each. */
  functions: { index: number; near: number | null }[];
}

/**
 * A loaded profile and what the editor overlays derive from it for the selected metric: function
 * totals, per-context function values (for imbalance), and per-file line costs mapped onto files
 * that exist in this workspace.
 */
export class LoadedProfile {
  metric: number;
  functions!: FunctionTotals;
  functionByContext!: Float64Array;
  total = 0;
  files = new Map<string, FileOverlay>();
  /** For a diff dataset (Compare Two Profiles): the comparison against `baseline` for the selected metric. */
  diff: ProfileDiff | undefined;
  /** For a diff dataset: changed and unchanged lines per workspace file URI (both runs' paths mapped). */
  diffLines = new Map<string, DiffLine[]>();

  /**
   * `profile` is what the views and hovers show; with a `baseline`, this is a diff dataset: `profile`
   * is the comparison run and the overlays show its change against the baseline.
   */
  constructor(readonly profile: Profile, readonly uri: vscode.Uri, readonly baseline?: { profile: Profile; uri: vscode.Uri }) {
    this.metric = profile.primaryMetric;
  }

  get name(): string {
    const own = path.basename(this.uri.fsPath);
    return this.baseline ? `Δ ${path.basename(this.baseline.uri.fsPath)} → ${own}` : own;
  }

  /** Recomputes the derived data for `metric` and maps recorded paths onto workspace files. */
  async derive(metric: number, resolver: SourceResolver): Promise<void> {
    const p = this.profile;
    this.metric = metric;
    this.functions = functionTotals(p, metric);
    this.functionByContext = functionInclusiveByContext(p, metric, this.functions);
    this.total = p.total(metric);
    const lines = lineCosts(p, metric);

    // Functions per recorded file, with a line inside each (the smallest seen).
    const tree = p.tree;
    const fnFiles = new Map<string, Map<number, number | null>>();
    for (let i = 0; i < tree.size; i++) {
      const file = tree.file(i);
      const f = this.functions.functionOfNode[i]!;
      if (!file || f < 0) continue;
      let m = fnFiles.get(file);
      if (!m) fnFiles.set(file, (m = new Map()));
      const line = tree.line(i);
      const prev = m.get(f);
      if (prev === undefined || (line !== null && (prev === null || line < prev))) m.set(f, line);
    }
    const recorded = new Set([...lines.keys(), ...fnFiles.keys()]);
    const files = new Map<string, FileOverlay>();
    await Promise.all([...recorded].map(async rec => {
      const uri = await resolver.resolve(rec);
      if (!uri) return;
      const key = uri.toString();
      let o = files.get(key);
      if (!o) files.set(key, (o = { uri, lines: [], functions: [] }));
      o.lines.push(...(lines.get(rec) ?? []));
      for (const [index, near] of fnFiles.get(rec) ?? []) o.functions.push({ index, near });
    }));
    this.files = files;
    if (this.baseline) await this.deriveDiff(resolver);
  }

  /** Diffs the selected metric (by name) against the baseline and maps both runs' lines onto workspace files. */
  private async deriveDiff(resolver: SourceResolver): Promise<void> {
    const diff = diffProfiles(this.baseline!.profile, this.profile, this.profile.metrics[this.metric]!.name);
    const perUri = new Map<string, DiffLine[][]>();
    await Promise.all([...diff.lines].map(async ([rec, lines]) => {
      const uri = await resolver.resolve(rec);
      if (!uri) return;
      const key = uri.toString();
      const lists = perUri.get(key);
      if (lists) lists.push(lines); else perUri.set(key, [lines]);
    }));
    this.diff = diff;
    this.diffLines = new Map([...perUri].map(([k, lists]) => [k, mergeDiffLines(lists)]));
  }

  overlayFor(uri: vscode.Uri): FileOverlay | undefined {
    return this.files.get(uri.toString());
  }

  /** max/mean of a function's inclusive value across contexts (1 when balanced, 0 when empty). */
  functionImbalance(f: number): number {
    const C = this.profile.contextCount;
    let max = 0, sum = 0;
    for (let c = 0; c < C; c++) { const v = this.functionByContext[f * C + c]!; sum += v; if (v > max) max = v; }
    return sum > 0 ? max / (sum / C) : 0;
  }
}
