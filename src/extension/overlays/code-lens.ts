import * as vscode from 'vscode';
import { contextNoun } from '../../analysis/model/context';
import { findFunctionDefinition } from '../../analysis/source/function-definitions';
import { formatDelta } from '../../analysis/graph/profile-diff';
import type { FunctionTotals } from '../../analysis/model/aggregates';
import { functionCallCounts } from '../../analysis/stats/call-counts';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { FunctionSpread } from '../../analysis/ensemble';
import { ensembleComparisonText } from '../ensembles/ensemble-comparison-text';
import { isEnsemble } from '../ensembles/ensemble-dataset';
import type { ProfileManager } from '../profile-manager';
import type { LoadedProfile } from '../profile-session';
import { overlaysEnabled } from '../settings';
import { SOURCE_CHANGED, type SourceEdits } from './source-edits';

/**
 * One CodeLens above each profiled function in the file: inclusive and exclusive share of the
 * total, the call count when the profile knows it, and, with several ranks or threads, the
 * max/mean imbalance across them. A click shows the function's node(s) in the Sankey. When the
 * file no longer matches the profile (SourceEdits), a single lens on line 1 says so instead. For a diff dataset
 * (Compare Two Profiles) the lens shows the change of the function's inclusive value instead:
 * `+0.84 s (+23%) vs baseline · 1.2 s → 2.04 s` (means over contexts).
 */
export class ProfileCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subs: vscode.Disposable[];
  private comparisonSub: vscode.Disposable | undefined;

  /** Call counts per function, for the function totals they were computed from. */
  private readonly calls = new WeakMap<FunctionTotals, Float64Array>();

  constructor(
    private readonly profiles: ProfileManager,
    private readonly edits: SourceEdits,
  ) {
    this.subs = [
      profiles.onDidChange(lp => {
        // The ensemble panel's mode, target and diff pair change the lenses of an ensemble.
        this.comparisonSub?.dispose();
        this.comparisonSub = isEnsemble(lp) ? lp.onDidChangeComparison(() => this.changed.fire()) : undefined;
        this.changed.fire();
      }),
      edits.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens')) this.changed.fire();
      }),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const lp = this.profiles.active;
    if (!lp || !overlaysEnabled()) return [];
    const overlay = lp.overlayFor(doc.uri);
    if (!overlay) return [];
    const lines = this.edits.linesOf(doc);
    if (!lines) {
      return [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: `$(warning) HPC Lens: ${SOURCE_CHANGED} — overlays hidden for this file`,
          tooltip: `${lp.name} was recorded from another version of this file: most of its profiled lines were edited or replaced. Undo the changes (or revert the file) to see the overlays again, or open a profile of the current source.`,
          command: '',
        }),
      ];
    }
    const text = doc.getText();
    const p = lp.profile;
    const metric = p.metrics[lp.metric]!;
    const contexts = p.contextCount;
    const lenses: vscode.CodeLens[] = [];
    const seen = new Set<number>();
    const diffByName = lp.diff ? new Map(lp.diff.functions.map(f => [f.name, f])) : undefined;
    for (const fn of overlay.functions) {
      const name = lp.functions.names[fn.index]!;
      const near = fn.near !== null ? lines.current(fn.near) : undefined;
      let line = findFunctionDefinition(text, name, near);
      if (line < 0) line = near ?? -1; // no definition found: put it on the profiled line itself
      if (line < 0 || line >= doc.lineCount || seen.has(line)) continue;
      seen.add(line);
      const d = diffByName?.get(name);
      if (diffByName) {
        if (!d) continue;
        const fmt = (v: number) => formatValue(v, metric.unit);
        const delta = d.comparisonInclusive - d.baselineInclusive;
        const title =
          delta === 0
            ? `$(dash) unchanged vs baseline · ${fmt(d.baselineInclusive)}`
            : `${delta > 0 ? '$(arrow-up)' : '$(arrow-down)'} ${formatDelta(d.baselineInclusive, d.comparisonInclusive, fmt)} vs baseline · ${fmt(d.baselineInclusive)} → ${fmt(d.comparisonInclusive)}`;
        lenses.push(
          new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
            title,
            tooltip: `${name}: inclusive ${metric.label}, mean over ${contextNoun(p.contexts)}, in ${lp.name}. Exclusive ${fmt(d.baselineExclusive)} → ${fmt(d.comparisonExclusive)}. Click to show the call graph of the comparison run.`,
            command: 'hpcLens.showSankey',
            arguments: [{ focusFunction: name }],
          }),
        );
        continue;
      }
      const incl = lp.functions.inclusive[fn.index]!;
      const excl = lp.functions.exclusive[fn.index]!;
      const share = (v: number) => (lp.total > 0 ? formatShare(v / lp.total) : '–');
      const ensemble = isEnsemble(lp) ? lp.ensemble : undefined;
      // The Ensemble CallFlow panel compares a target run or two runs: the lens says that instead.
      const compared = isEnsemble(lp) ? ensembleComparisonText(lp, metric, name) : undefined;
      if (compared) {
        lenses.push(
          new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
            title: compared.title,
            tooltip: `${compared.tooltip} Click to show the function in Ensemble CallFlow.`,
            command: 'hpcLens.showEnsemble',
            arguments: [{ focusFunction: name }],
          }),
        );
        continue;
      }
      const spread = ensemble?.spreads(metric.name).get(name);
      if (ensemble && spread) {
        lenses.push(
          new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
            title: `$(flame) ${share(incl)} inclusive · ${share(excl)} exclusive · ${spreadText(spread, metric.unit)}`,
            tooltip: `${name}: ${metric.label}, inclusive, per run (mean over each run's ranks) across the ${ensemble.runCount} runs of ${lp.name}; runs without the function are left out of min/median/max and CV. Click to show the function in the call graph.`,
            command: 'hpcLens.showSankey',
            arguments: [{ focusFunction: name }],
          }),
        );
        continue;
      }
      let title = `$(flame) ${share(incl)} inclusive (${formatValue(incl, metric.unit)}) · ${share(excl)} exclusive`;
      const calls = this.callCounts(lp)[fn.index]!;
      if (!Number.isNaN(calls)) title += ` · ${formatValue(calls, 'count')} call${calls === 1 ? '' : 's'}`;
      if (contexts > 1)
        title += ` · imbalance ${lp.functionImbalance(fn.index).toFixed(2)}× max/mean over ${contexts} ${contextNoun(lp.profile.contexts)}`;
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title,
          tooltip: `${name}: ${metric.label} in ${lp.name}. Click to show the function in the call graph.`,
          command: 'hpcLens.showSankey',
          arguments: [{ focusFunction: name }],
        }),
      );
    }
    return lenses;
  }

  private callCounts(lp: LoadedProfile): Float64Array {
    let c = this.calls.get(lp.functions);
    if (!c) this.calls.set(lp.functions, (c = functionCallCounts(lp.profile, lp.functions)));
    return c;
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.comparisonSub?.dispose();
    this.changed.dispose();
  }
}

/** Run-to-run spread of a function: `min 1.2 s · median 1.5 s · max 2.9 s (run clang_64) · CV 18%`, and the runs it is in when not all. */
export function spreadText(s: FunctionSpread, unit: string): string {
  const fmt = (v: number) => formatValue(v, unit);
  let text = `min ${fmt(s.min)} · median ${fmt(s.median)} · max ${fmt(s.max)}${s.maxRun !== null ? ` (run ${s.maxRun})` : ''}`;
  if (s.present > 1 && Number.isFinite(s.cv)) text += ` · CV ${Math.round(s.cv * 100)}%`;
  if (s.missing > 0) text += ` · in ${s.present} of ${s.present + s.missing} runs`;
  return text;
}
