import * as vscode from 'vscode';
import { DataMovementKind } from '../../analysis/model/trace';
import {
  dataMovementAnnotation,
  dataMovementLinesByFile,
  type DataMovementSite,
} from '../../analysis/stats/data-movement-sites';
import type { DatasetManager } from '../datasets/dataset-manager';
import { dataMovementAnnotations, overlaysEnabled } from '../settings';
import type { SourceResolver } from '../source-resolver';
import { resolveRecordedFiles } from './recorded-files';
import type { SourceEdits } from './source-edits';

/** A line marked as issuing copies, as last applied (for tests): 1-based line, dominant direction label, after-line text when shown. */
export interface DataMovementLine {
  line: number;
  direction: string;
  annotation?: string;
}

/** One marker style per dominant direction: gutter icon (media/data-movement/<icon>-<theme>.svg) and ruler colour. */
const STYLES = [
  { icon: 'h2d', ruler: 'hpcLens.dataMovementHostToDevice', kinds: [DataMovementKind.HostToDevice] },
  { icon: 'd2h', ruler: 'hpcLens.dataMovementDeviceToHost', kinds: [DataMovementKind.DeviceToHost] },
  {
    icon: 'd2d',
    ruler: 'hpcLens.dataMovementDeviceToDevice',
    kinds: [DataMovementKind.DeviceToDevice, DataMovementKind.Peer],
  },
  { icon: 'memset', ruler: 'hpcLens.dataMovementMemset', kinds: [DataMovementKind.Memset] },
  { icon: 'copy', ruler: 'hpcLens.dataMovementForeground', kinds: [DataMovementKind.Other] },
] as const;

const styleOf = (kind: DataMovementKind): number =>
  Math.max(
    0,
    STYLES.findIndex(s => (s.kinds as readonly number[]).includes(kind)),
  );

/**
 * Markers on the source lines that issue host↔device and device↔device copies (from the trace's
 * data-movement table): a gutter icon for the line's dominant direction (most bytes), a mark in
 * the right lane of the overview ruler, and with `hpcLens.dataMovement.annotations` the line's
 * copies after it, `⇅ H→D 96 MB · 24× · 3.1 ms · 31 GB/s`. Separate from the heat so both show.
 * Recorded files are mapped onto the workspace through the SourceResolver, as the heat's are;
 * only visible editors are decorated, again when the active dataset, the settings or the path
 * mappings change. `hpcLens.overlays.enabled` turns the markers off with the other overlays.
 */
export class DataMovementDecorations implements vscode.Disposable {
  private readonly types: vscode.TextEditorDecorationType[];
  private readonly subs: vscode.Disposable[];
  /** Marked sites per workspace file URI, for the active dataset. */
  private files = new Map<string, DataMovementSite[]>();
  /** Bumped on every remap, so a slow remap of an older dataset never overwrites a newer one. */
  private generation = 0;
  private readonly applied = new vscode.EventEmitter<{ uri: string; lines: readonly DataMovementLine[] }>();
  /** Fires after an editor's copy markers were (re)applied: the lines it marks now. */
  readonly onDidApply = this.applied.event;

  constructor(
    extensionUri: vscode.Uri,
    private readonly profiles: DatasetManager,
    private readonly resolver: SourceResolver,
    private readonly edits?: SourceEdits,
  ) {
    this.types = STYLES.map(s => {
      const icon = (theme: string) =>
        vscode.Uri.joinPath(extensionUri, 'media', 'data-movement', `${s.icon}-${theme}.svg`);
      return vscode.window.createTextEditorDecorationType({
        light: { gutterIconPath: icon('light') },
        dark: { gutterIconPath: icon('dark') },
        gutterIconSize: 'contain',
        overviewRulerColor: new vscode.ThemeColor(s.ruler),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      });
    });
    this.subs = [
      profiles.onDidChange(() => void this.remap()),
      resolver.onDidChange(() => void this.remap()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      ...(edits ? [edits.onDidChange(() => this.refresh())] : []),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens')) this.refresh();
      }),
    ];
    void this.remap();
  }

  /** Settles when the markers of the active dataset are applied to the visible editors. */
  ready: Promise<void> = Promise.resolve();

  /** Maps the active dataset's issuing lines onto workspace files, then redecorates. */
  remap(): Promise<void> {
    const generation = ++this.generation;
    const lp = this.profiles.active;
    this.ready = (async () => {
      const files = new Map<string, DataMovementSite[]>();
      if (lp) {
        const byRecorded = dataMovementLinesByFile((await lp.dataMovementSites()).sites);
        for (const [key, mapped] of await resolveRecordedFiles(this.resolver, byRecorded.keys())) {
          files.set(
            key,
            mapped.recorded.flatMap(r => byRecorded.get(r)!),
          );
        }
      }
      if (generation !== this.generation) return;
      this.files = files;
      this.refresh();
    })();
    return this.ready;
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  /**
   * The 0-based document line that a line recorded in the profile is at now, or undefined when the
   * document has no such line. Every marker goes through here, so that following edits (a line
   * tracker) is a change of this one function.
   */
  private documentLine(doc: vscode.TextDocument, recordedLine: number): number | undefined {
    const line = this.edits ? this.edits.linesOf(doc)?.current(recordedLine) : recordedLine - 1;
    return line !== undefined && line >= 0 && line < doc.lineCount ? line : undefined;
  }

  private decorate(editor: vscode.TextEditor): void {
    const doc = editor.document;
    const key = doc.uri.toString();
    const sites = overlaysEnabled() ? (this.files.get(key) ?? []) : [];
    const annotate = dataMovementAnnotations();
    const perStyle: vscode.DecorationOptions[][] = this.types.map(() => []);
    const marked: DataMovementLine[] = [];
    for (const site of sites) {
      const line = this.documentLine(doc, site.line!);
      if (line === undefined) continue;
      const dominant = site.directions[0]!;
      const options: vscode.DecorationOptions = { range: doc.lineAt(line).range };
      const m: DataMovementLine = { line: line + 1, direction: dominant.label };
      if (annotate) {
        m.annotation = dataMovementAnnotation(site);
        options.renderOptions = {
          after: {
            contentText: m.annotation,
            color: new vscode.ThemeColor('hpcLens.dataMovementForeground'),
            margin: '0 0 0 2.5em',
            fontStyle: 'italic',
          },
        };
      }
      perStyle[styleOf(dominant.kind)]!.push(options);
      marked.push(m);
    }
    this.types.forEach((t, k) => editor.setDecorations(t, perStyle[k]!));
    this.applied.fire({ uri: key, lines: marked });
  }

  dispose(): void {
    this.applied.dispose();
    this.subs.forEach(s => s.dispose());
    this.types.forEach(t => t.dispose());
  }
}
