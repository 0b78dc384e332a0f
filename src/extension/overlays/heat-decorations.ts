import * as vscode from 'vscode';
import { deltaDirection, formatDelta } from '../../analysis/graph/profile-diff';
import { formatValue } from '../../analysis/stats/format';
import { heatAnnotation, heatLevel, nodeSetByContext, spreadOf } from '../../analysis/stats/line-details';
import type { DatasetManager } from '../datasets/dataset-manager';
import { heatAnnotations, heatMinShare, heatScale, overlaysEnabled } from '../settings';
import { hottestLineValue } from './overlay-cache';
import type { SourceEdits } from './source-edits';

export const HEAT_LEVELS = 5;

/** One heat-marked line: 1-based line in the document as it is now, level 0 … HEAT_LEVELS − 1, and its after-line text when shown. */
export interface HeatLine {
  line: number;
  level: number;
  annotation?: string;
}

/** The lines a comparison marks in a document (1-based, as the document is now). */
export interface DiffMarks {
  regressions: number[];
  improvements: number[];
}

/** An editor's line marks as just applied: the heat-marked lines and, for a comparison, the changed lines. */
export interface AppliedLineMarks {
  uri: string;
  heat: readonly HeatLine[];
  changes: DiffMarks;
}

/**
 * Gutter heat on lines that carry cost: five levels, each a gutter bar (light/dark variants), a
 * faint line tint (`hpcLens.heatBackground1` … 5) and an overview-ruler mark (`hpcLens.heat1` … 5),
 * all themable. Only visible editors are decorated. The level is the line's exclusive cost relative
 * to the hottest line of the same file (`hpcLens.heat.scale` = `file`) or of the whole profile
 * (`global`). With `hpcLens.heat.annotations` on, each marked line ends with its share, value and
 * imbalance in `hpcLens.annotationForeground`. The line's hover comes from ProfileHoverProvider.
 * Marks follow the user's edits through SourceEdits (shifted, dropped on edited lines, hidden when
 * the file no longer matches the profile).
 *
 * For a diff dataset (Compare Two Profiles) the heat gives way to two marks: lines whose exclusive
 * value (mean over contexts) grew get `hpcLens.regressionBackground`, lines that got cheaper
 * `hpcLens.improvementBackground`, each with its delta after the line; changes below
 * `hpcLens.heat.minShare` of the larger run's total count as noise and stay unmarked.
 */
export class HeatDecorations implements vscode.Disposable {
  private readonly types: vscode.TextEditorDecorationType[];
  private readonly diffTypes: {
    regression: vscode.TextEditorDecorationType;
    improvement: vscode.TextEditorDecorationType;
  };
  private readonly subs: vscode.Disposable[];
  private readonly applied = new vscode.EventEmitter<AppliedLineMarks>();
  /** Fires after an editor's marks were (re)applied: what it shows now. */
  readonly onDidApply = this.applied.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly datasets: DatasetManager,
    private readonly edits: SourceEdits,
  ) {
    this.types = Array.from({ length: HEAT_LEVELS }, (_, k) => {
      const icon = (theme: string) => vscode.Uri.joinPath(extensionUri, 'media', 'heat', `heat-${k + 1}-${theme}.svg`);
      return vscode.window.createTextEditorDecorationType({
        light: { gutterIconPath: icon('light') },
        dark: { gutterIconPath: icon('dark') },
        gutterIconSize: 'contain',
        // A whole-line tint as well: visible in every host (web workbenches may not load gutter icons).
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor(`hpcLens.heatBackground${k + 1}`),
        overviewRulerColor: new vscode.ThemeColor(`hpcLens.heat${k + 1}`),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      });
    });
    const diffType = (background: string, ruler: string) =>
      vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor(background),
        overviewRulerColor: new vscode.ThemeColor(ruler),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      });
    this.diffTypes = {
      regression: diffType('hpcLens.regressionBackground', 'editorOverviewRuler.deletedForeground'),
      improvement: diffType('hpcLens.improvementBackground', 'editorOverviewRuler.addedForeground'),
    };
    this.subs = [
      datasets.onDidChange(() => this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      edits.onDidChange(uri => {
        for (const editor of vscode.window.visibleTextEditors)
          if (editor.document.uri.toString() === uri.toString()) this.decorate(editor);
      }),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens')) this.refresh();
      }),
    ];
    this.refresh();
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  private decorate(editor: vscode.TextEditor): void {
    const key = editor.document.uri.toString();
    const ds = this.datasets.active;
    const lines = this.edits.linesOf(editor.document);
    const marks = ds && lines && overlaysEnabled() ? ds.lineMarks(editor.document.uri) : undefined;
    const perLevel: vscode.DecorationOptions[][] = this.types.map(() => []);
    const heat: HeatLine[] = [];
    const up: vscode.DecorationOptions[] = [],
      down: vscode.DecorationOptions[] = [];
    const changes: DiffMarks = { regressions: [], improvements: [] };
    const doc = editor.document;
    const after = (contentText: string): vscode.DecorationRenderOptions['after'] => ({
      contentText,
      color: new vscode.ThemeColor('hpcLens.annotationForeground'),
      margin: '0 0 0 2.5em',
      fontStyle: 'italic',
    });
    if (ds && lines && marks?.kind === 'heat') {
      const p = ds.profile;
      const unit = ds.metricDescriptor.unit;
      const min = heatMinShare();
      const annotate = heatAnnotations();
      let max = 0;
      if (heatScale() === 'global') max = hottestLineValue(p, ds.metric);
      else for (const l of marks.lines) max = Math.max(max, l.exclusive);
      for (const l of marks.lines) {
        const share = l.exclusive / ds.total;
        if (l.exclusive <= 0 || share < min) continue;
        const at = lines.current(l.line);
        if (at === undefined || at >= doc.lineCount) continue;
        const level = heatLevel(l.exclusive, max, HEAT_LEVELS);
        const options: vscode.DecorationOptions = { range: doc.lineAt(at).range };
        const h: HeatLine = { line: at + 1, level };
        if (annotate) {
          // Only where contexts are peers (ranks): a trace's CPU thread and GPU stream are not.
          const imbalance = ds.imbalances.contextsAreUnits
            ? spreadOf(nodeSetByContext(p, ds.metric, l.nodes, 'exclusive')).imbalance
            : null;
          h.annotation = heatAnnotation(share, l.exclusive, unit, imbalance);
          options.renderOptions = { after: after(h.annotation) };
        }
        perLevel[level]!.push(options);
        heat.push(h);
      }
    } else if (lines && marks?.kind === 'changes') {
      // Changes below hpcLens.heat.minShare of the larger run's total are noise and stay unmarked.
      const floor = heatMinShare() * marks.larger;
      const fmt = (v: number) => formatValue(v, marks.unit);
      for (const l of marks.lines) {
        const dir = deltaDirection(l.baselineExclusive, l.comparisonExclusive, floor);
        const at = lines.current(l.line);
        if (dir === 0 || at === undefined || at >= doc.lineCount) continue;
        const text = `${formatDelta(l.baselineExclusive, l.comparisonExclusive, fmt)} · ${fmt(l.baselineExclusive)} → ${fmt(l.comparisonExclusive)}`;
        (dir > 0 ? up : down).push({ range: doc.lineAt(at).range, renderOptions: { after: after(text) } });
        (dir > 0 ? changes.regressions : changes.improvements).push(at + 1);
      }
    }
    this.types.forEach((t, k) => editor.setDecorations(t, perLevel[k]!));
    editor.setDecorations(this.diffTypes.regression, up);
    editor.setDecorations(this.diffTypes.improvement, down);
    this.applied.fire({ uri: key, heat, changes });
  }

  dispose(): void {
    this.applied.dispose();
    this.subs.forEach(s => s.dispose());
    this.types.forEach(t => t.dispose());
    this.diffTypes.regression.dispose();
    this.diffTypes.improvement.dispose();
  }
}
