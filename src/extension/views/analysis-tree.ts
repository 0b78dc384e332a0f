import * as vscode from 'vscode';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';

/** One row of a side-bar analysis: what it shows and where a click leads. */
export interface AnalysisEntry {
  label: string;
  description: string;
  /** Markdown; text from the profile in it escaped with `markdownText`. */
  tooltip: string;
  /** Source location as the profile records it; null when the frame has none (no click target). */
  location: { file: string; line: number | null; name: string } | null;
  /** Codicon id, e.g. `flame`, and a theme colour id for it (`charts.red`). */
  icon: string;
  iconColor?: string;
  /** Rows shown under this one, expanded (a hot path's next step) unless `collapsed` (a group listed apart). */
  children?: AnalysisEntry[];
  collapsed?: boolean;
}

/** A view's rows, with a message shown above them (why the list is empty, what it compares). */
export interface AnalysisRows {
  rows: AnalysisEntry[];
  message?: string;
}

/**
 * A side-bar tree of analysis rows for the active profile and metric. Every view (hot paths, top
 * lines, top functions, load imbalance) is this one provider with its own `compute`; rows are
 * recomputed when the profile or metric changes, and a click opens the row's source line.
 */
export class AnalysisTreeProvider implements vscode.TreeDataProvider<AnalysisEntry>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[];
  private rows: AnalysisEntry[] = [];
  /** Parent of every nested row (TreeView.reveal walks up through getParent). */
  private parents = new Map<AnalysisEntry, AnalysisEntry>();

  constructor(
    private readonly profiles: DatasetManager,
    private readonly compute: (ds: Dataset) => AnalysisEntry[] | AnalysisRows | Promise<AnalysisEntry[] | AnalysisRows>,
  ) {
    this.subs = [
      profiles.onDidChange(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens')) this.refresh();
      }),
    ];
    this.refresh();
  }

  /** The rows as last computed (top level), for tests and exports. */
  get entries(): readonly AnalysisEntry[] {
    return this.rows;
  }

  /** The message shown above the rows (the view's `message`), if any. */
  get message(): string | undefined {
    return this.shownMessage;
  }
  private shownMessage: string | undefined;

  /**
   * Recomputes the rows for the active dataset. Rows computed in the analysis service arrive later;
   * only the latest refresh shows its rows.
   */
  refresh(): void {
    const ds = this.profiles.active;
    const generation = ++this.generation;
    const rows = ds ? this.compute(ds) : [];
    const shownFor = this.shownFor;
    this.shownFor = ds;
    if (!(rows instanceof Promise)) this.show(rows);
    else {
      // Another dataset's rows must not stand under this one's name while its rows are computed.
      if (ds !== shownFor) this.show({ rows: [], message: vscode.l10n.t('Computing…') });
      rows.then(
        r => {
          if (generation === this.generation) this.show(r);
        },
        (e: Error) => {
          if (generation === this.generation) this.show([]);
          console.error(`HPC Lens: a side-bar view could not be computed: ${e.message}`);
        },
      );
    }
  }

  private generation = 0;
  /** The dataset whose rows (or computation) the view shows. */
  private shownFor: Dataset | undefined;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /** Fires after the rows changed (tests and views that follow another's rows). */
  readonly onDidRefresh = this.refreshed.event;

  private show(result: AnalysisEntry[] | AnalysisRows): void {
    const { rows, message } = Array.isArray(result) ? { rows: result, message: undefined } : result;
    this.rows = rows;
    this.shownMessage = message;
    this.parents = new Map();
    const link = (e: AnalysisEntry) => {
      for (const c of e.children ?? []) {
        this.parents.set(c, e);
        link(c);
      }
    };
    this.rows.forEach(link);
    this.changed.fire();
    this.refreshed.fire();
  }

  getTreeItem(e: AnalysisEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(
      e.label,
      !e.children?.length
        ? vscode.TreeItemCollapsibleState.None
        : e.collapsed
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.description = e.description;
    // Tooltips are Markdown whose profile-given parts are escaped (markdown-text.ts); untrusted, no HTML.
    const tooltip = new vscode.MarkdownString(e.tooltip, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(e.icon, e.iconColor ? new vscode.ThemeColor(e.iconColor) : undefined);
    if (e.location) {
      item.command = {
        command: 'hpcLens.revealNode',
        title: vscode.l10n.t('Open Source'),
        arguments: [e.location.file, e.location.line, e.location.name],
      };
    }
    return item;
  }

  getChildren(e?: AnalysisEntry): AnalysisEntry[] {
    return e ? (e.children ?? []) : this.rows;
  }

  getParent(e: AnalysisEntry): AnalysisEntry | undefined {
    return this.parents.get(e);
  }

  /** Every row (nested ones too, parents first) that `match` accepts. */
  find(match: (e: AnalysisEntry) => boolean): AnalysisEntry[] {
    const out: AnalysisEntry[] = [];
    const walk = (list: readonly AnalysisEntry[]) => {
      for (const e of list) {
        if (match(e)) out.push(e);
        walk(e.children ?? []);
      }
    };
    walk(this.rows);
    return out;
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.changed.dispose();
    this.refreshed.dispose();
  }
}
