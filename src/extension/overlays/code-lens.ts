import * as vscode from 'vscode';
import { findFunctionDefinition } from '../../analysis/source/function-definitions';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { overlaysEnabled } from '../settings';
import { SOURCE_CHANGED, type SourceEdits } from './source-edits';

/** Something that may announce that its CodeLens changed (an ensemble following the Ensemble CallFlow panel, a PDES run its panel's selection). */
interface LensSource {
  onDidChangeComparison?: vscode.Event<unknown>;
}

/** Line lenses follow a window's whole run: its analysis can arrive while the window is active. */
function overlaySources(d: Dataset | undefined): Dataset[] {
  return d ? [...new Set([d, d.wholeRun])] : [];
}

/**
 * One CodeLens above each profiled function in the file, with what the active dataset says about
 * it (Dataset.lens): shares, calls and imbalance for a profile, the change for a comparison, the
 * run-to-run spread or the Ensemble CallFlow panel's comparison for an ensemble. A click shows the
 * function in the call graph. When the file no longer matches the profile (SourceEdits), a single
 * lens on line 1 says so instead.
 */
export class ProfileCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subs: vscode.Disposable[];
  private datasetSub: vscode.Disposable | undefined;
  private overlaySubs: vscode.Disposable[] = [];

  constructor(
    private readonly datasets: DatasetManager,
    private readonly edits: SourceEdits,
  ) {
    this.subs = [
      datasets.onDidChange(d => {
        this.datasetSub?.dispose();
        this.datasetSub = (d as LensSource | undefined)?.onDidChangeComparison?.(() => this.changed.fire());
        this.overlaySubs.forEach(s => s.dispose());
        this.overlaySubs = overlaySources(d).map(x => x.onDidChangeOverlays(() => this.changed.fire()));
        this.changed.fire();
      }),
      edits.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens')) this.changed.fire();
      }),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const ds = this.datasets.active;
    if (!ds || !overlaysEnabled()) return [];
    const overlay = ds.overlayFor(doc.uri);
    if (!overlay) return this.lineLenses(ds, doc);
    const lines = this.edits.linesOf(doc);
    if (!lines) {
      return [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: `$(warning) ${vscode.l10n.t('HPC Lens: {0} — overlays hidden for this file', SOURCE_CHANGED)}`,
          tooltip: vscode.l10n.t(
            '{0} was recorded from another version of this file: most of its profiled lines were edited or replaced. Undo the changes (or revert the file) to see the overlays again, or open a profile of the current source.',
            ds.name,
          ),
          command: '',
        }),
      ];
    }
    const text = doc.getText();
    const lenses: vscode.CodeLens[] = [];
    const seen = new Set<number>();
    for (const fn of overlay.functions) {
      const name = ds.functions.names[fn.index]!;
      const near = fn.near !== null ? lines.current(fn.near) : undefined;
      let line = findFunctionDefinition(text, name, near);
      if (line < 0) line = near ?? -1; // no definition found: put it on the profiled line itself
      if (line < 0 || line >= doc.lineCount || seen.has(line)) continue;
      const lens = ds.lens(fn.index);
      if (!lens) continue;
      seen.add(line);
      lenses.push(new vscode.CodeLens(new vscode.Range(line, 0, line, 0), lens));
    }
    return [...lenses, ...this.lineLenses(ds, doc)];
  }

  /** Lenses on source lines (a trace analysis's call sites, data-movement flags), where those lines are now. */
  private lineLenses(ds: Dataset, doc: vscode.TextDocument): vscode.CodeLens[] {
    const lines = this.edits.linesOf(doc);
    if (!lines) return [];
    const out: vscode.CodeLens[] = [];
    for (const l of ds.lineLenses(doc.uri)) {
      const at = lines.current(l.line);
      if (at === undefined || at < 0 || at >= doc.lineCount) continue;
      out.push(new vscode.CodeLens(new vscode.Range(at, 0, at, 0), l.content));
    }
    return out;
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.datasetSub?.dispose();
    this.overlaySubs.forEach(s => s.dispose());
    this.changed.dispose();
  }
}
