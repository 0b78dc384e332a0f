import * as vscode from 'vscode';
import { contextNoun } from '../../analysis/model/context';
import { findFunctionDefinition } from '../../analysis/source/function-definitions';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { ProfileManager } from '../profile-manager';
import { overlaysEnabled } from '../settings';

/**
 * One CodeLens above each profiled function in the file: inclusive and exclusive share of the
 * total and, with several ranks or threads, the max/mean imbalance across them.
 */
export class ProfileCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly profiles: ProfileManager) {
    this.subs = [
      profiles.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('hpcLens')) this.changed.fire(); }),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const lp = this.profiles.active;
    if (!lp || !overlaysEnabled()) return [];
    const overlay = lp.overlayFor(doc.uri);
    if (!overlay) return [];
    const text = doc.getText();
    const p = lp.profile;
    const metric = p.metrics[lp.metric]!;
    const contexts = p.contextCount;
    const lenses: vscode.CodeLens[] = [];
    const seen = new Set<number>();
    for (const fn of overlay.functions) {
      const name = lp.functions.names[fn.index]!;
      const near = fn.near !== null ? fn.near - 1 : undefined;
      let line = findFunctionDefinition(text, name, near);
      if (line < 0) line = near ?? -1; // no definition found: put it on the profiled line itself
      if (line < 0 || line >= doc.lineCount || seen.has(line)) continue;
      seen.add(line);
      const incl = lp.functions.inclusive[fn.index]!;
      const excl = lp.functions.exclusive[fn.index]!;
      const share = (v: number) => (lp.total > 0 ? formatShare(v / lp.total) : '–');
      let title = `$(flame) ${share(incl)} inclusive (${formatValue(incl, metric.unit)}) · ${share(excl)} exclusive`;
      if (contexts > 1) title += ` · imbalance ${lp.functionImbalance(fn.index).toFixed(2)}× max/mean over ${contexts} ${contextNoun(lp.profile.contexts)}`;
      lenses.push(new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title,
        tooltip: `${name}: ${metric.label} in ${lp.name}. Click to show the call graph.`,
        command: 'hpcLens.showSankey',
        arguments: [{ focusFunction: name }],
      }));
    }
    return lenses;
  }

  dispose(): void { this.subs.forEach(s => s.dispose()); this.changed.dispose(); }
}
