import * as path from 'node:path';
import * as vscode from 'vscode';
import { NodeKind } from '../../analysis/model/call-tree';
import { nodesAtLine } from '../../analysis/source/line-nodes';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { Dataset } from '../datasets/dataset';
import { recordedFiles, type SourceResolver } from '../source-resolver';
import type { AnalysisEntry, AnalysisTreeProvider } from '../views/analysis-tree';
import type { SideBarViews } from '../views/side-bar-views';
import type { CallflowPanel } from '../webviews/callflow-panel';
import { resolveRecordedFiles, type MappedFile } from './recorded-files';
import { SOURCE_CHANGED, type SourceEdits } from './source-edits';

/** A side-bar tree with its view (the view reveals and selects rows). */
export interface RevealableTree {
  provider: AnalysisTreeProvider;
  view: vscode.TreeView<AnalysisEntry>;
}

/** What the last Reveal Current Line found and showed (for the status of the command and for tests). */
export interface LineReveal {
  /** The document and its 1-based line (as it is now); `profiledLine` as the profile records it. */
  uri: string;
  line: number;
  profiledLine: number | undefined;
  /** Call-tree nodes of the line, or of the function around it (`exact` false). */
  nodes: number[];
  exact: boolean;
  function: string | undefined;
  /** Per visible side-bar view: the labels of the rows revealed and selected. */
  views: Record<string, string[]>;
  /** Sankey node ids highlighted (empty when the panel is closed). */
  callflow: string[];
  /** Shown to the user when nothing matched. */
  message: string | undefined;
}

const ownsCost = (kind: number) => kind === NodeKind.Function || kind === NodeKind.Region;

/** The frames of a function by name (what its CodeLens stands for in the Sankey). */
export function functionFrames(lp: Dataset, name: string): number[] {
  const f = lp.functions.names.indexOf(name);
  if (f < 0) return [];
  const { kind } = lp.profile.tree.columns;
  const out: number[] = [];
  for (let i = 0; i < kind.length; i++) if (lp.functions.functionOfNode[i] === f && ownsCost(kind[i]!)) out.push(i);
  return out;
}

/**
 * `HPC Lens: Reveal Current Line in Views`: the call-tree nodes at the cursor's line (the recorded
 * paths that resolve to this file, the line mapped back through the user's edits; the function
 * around the line when nothing is recorded on it) are selected in the visible side-bar views and
 * highlighted in the Sankey when it is open; otherwise the user is told there is no profile data on
 * that line.
 */
export class LineRevealer {
  last: LineReveal | undefined;
  /** Workspace files and the recorded paths that resolve to each, per profile. */
  private readonly mapped = new WeakMap<Dataset, Promise<Map<string, MappedFile>>>();

  constructor(
    private readonly profiles: DatasetManager,
    private readonly resolver: SourceResolver,
    private readonly edits: SourceEdits,
    private readonly callflow: CallflowPanel,
    private readonly trees: () => ReadonlyMap<string, RevealableTree>,
  ) {}

  async revealCurrentLine(editor = vscode.window.activeTextEditor): Promise<LineReveal | undefined> {
    const lp = this.profiles.active;
    if (!lp || !editor) return undefined;
    const doc = editor.document;
    const line0 = editor.selection.active.line;
    const name = path.basename(doc.uri.fsPath);
    const result: LineReveal = {
      uri: doc.uri.toString(),
      line: line0 + 1,
      profiledLine: undefined,
      nodes: [],
      exact: false,
      function: undefined,
      views: {},
      callflow: [],
      message: undefined,
    };
    const map = this.edits.linesOf(doc);
    const files = await this.recordedPathsOf(lp, doc.uri);
    if (!map)
      result.message = vscode.l10n.t('HPC Lens: {0} — {1} no longer matches {2}.', SOURCE_CHANGED, name, lp.name);
    else {
      result.profiledLine = map.profiled(line0);
      if (files.size && result.profiledLine !== undefined) {
        const found = nodesAtLine(lp.profile, files, result.profiledLine, lp.functions);
        result.nodes = found.nodes;
        result.exact = found.exact;
        result.function = found.function >= 0 ? lp.functions.names[found.function] : undefined;
      }
      if (result.nodes.length === 0) {
        result.message =
          result.profiledLine === undefined && files.size
            ? vscode.l10n.t(
                'HPC Lens: line {0} of {1} was edited since the profile; no profile data for it.',
                line0 + 1,
                name,
              )
            : vscode.l10n.t('HPC Lens: no profile data on line {0} of {1}.', line0 + 1, name);
      }
    }
    this.last = result;
    if (result.message) {
      void vscode.window.showInformationMessage(result.message);
      return result;
    }
    await this.revealInTrees(result, files);
    if (this.callflow.isOpen) result.callflow = await this.callflow.highlight(result.nodes);
    return result;
  }

  /** Selects the best matching row of every visible side-bar view: the line itself, else the function. */
  private async revealInTrees(r: LineReveal, files: ReadonlySet<string>): Promise<void> {
    for (const [id, { provider, view }] of this.trees()) {
      if (!view.visible) continue;
      const atLine = r.exact
        ? provider.find(e => !!e.location && files.has(e.location.file) && e.location.line === r.profiledLine)
        : [];
      // Function rows: by location name, or by label where the profile gives the function no file.
      const ofFunction = r.function
        ? provider.find(e => e.location?.name === r.function || e.label === r.function)
        : [];
      // A hot path lists a function on every step below it: the deepest step is the one meant.
      const pick = atLine[atLine.length - 1] ?? ofFunction[ofFunction.length - 1];
      if (!pick) continue;
      try {
        await view.reveal(pick, { select: true, focus: false, expand: true });
        r.views[id] = [pick.label];
      } catch {
        // The view refreshed under us (profile or metric switched): nothing to select any more.
      }
    }
  }

  /** The paths the profile records that resolve to this workspace file. */
  private async recordedPathsOf(lp: Dataset, uri: vscode.Uri): Promise<Set<string>> {
    let mapped = this.mapped.get(lp);
    if (!mapped) this.mapped.set(lp, (mapped = resolveRecordedFiles(this.resolver, recordedFiles(lp.profile))));
    return new Set((await mapped).get(uri.toString())?.recorded ?? []);
  }
}

/** The side-bar trees by view id, each provider with its own tree view. */
export function revealableTrees(sideBar: Pick<SideBarViews, 'providers' | 'views'>): Map<string, RevealableTree> {
  const out = new Map<string, RevealableTree>();
  for (const [id, provider] of sideBar.providers) {
    const view = sideBar.views.get(id);
    if (view) out.set(id, { provider, view });
  }
  return out;
}
