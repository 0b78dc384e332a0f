import * as vscode from 'vscode';
import type { LineCost } from '../../analysis/model/aggregates';
import { NodeKind } from '../../analysis/model/call-tree';
import { isSparse } from '../../analysis/model/sparse-matrix';
import { formatCount, formatShare } from '../../analysis/stats/format';
import { nodeSetValues } from '../../analysis/stats/line-details';
import { formatCycles, formatLevelShare, lineAnnotation, type LevelSplit } from '../../analysis/stats/memory-format';
import { md } from '../../analysis/stats/summary-export';
import type { AnalysisService, OpenedProfile, OpenedSystemDataset } from '../../service/analysis-service';
import type { MemoryOpened, MemoryShape } from '../../service/systems/memory-system';
import { MEMORY_LEVELS } from '../../shared/memory-protocol';
import { code, rankSpreadMarkdown } from '../overlays/spread-markdown';
import { Dataset, type HoverPlace, type HoverSubject, type LensContent } from './dataset';

/** The command a memory CodeLens runs (the Memory view, selecting the line). */
export const SHOW_MEMORY_COMMAND = 'hpcLens.showMemory';
/** CodeLenses per source file: MemAxes' code view shows the top 8 lines of a file. */
const LENSES_PER_FILE = 8;
/** Variables named in a line's CodeLens. */
const LENS_VARIABLES = 3;

/** A line's or variable's cost with its split over serving levels. */
interface LevelCost extends LevelSplit {
  levelCycles: number[];
}

/**
 * Memory-access samples (MemAxes): the dataset of a samples file or run folder, whose editor
 * profile (file → line → variable over the PUs, built by the memory system) feeds heat, Top Lines,
 * hot paths and imbalance like any profile. What it says differently: the after-line text
 * (`⏱ 307 k cyc · L3 41 % · RAM 9 %`), a CodeLens **Open in Memory view** above the hottest lines,
 * and hovers by serving level — on a variable's name, that variable's cycles, samples and levels.
 *
 * The panel's selection lives in the memory system (the dataset's worker). `selectionDataset()`
 * asks it for the editor profile of the selection and wraps it as a dataset of its own, which the
 * DatasetManager shows in this one's place (showInPlace) until the selection is cleared: every
 * overlay then reads the selection, with no computation on the extension host.
 */
export class MemoryDataset extends Dataset {
  readonly kind = 'memory';
  /** Per file, the lines that carry a CodeLens (by the selected metric), rebuilt after each derive. */
  private lensLines: Set<number> | undefined;

  constructor(
    service: AnalysisService,
    opened: OpenedProfile,
    uri: vscode.Uri,
    /** What the memory system said when it opened the samples. */
    readonly memory: MemoryOpened,
    /** For a selection: the dataset of all samples it was made in, and its size. */
    private readonly selectionOf?: { whole: MemoryDataset; samples: number },
  ) {
    super(service, opened, uri);
  }

  /** The dataset of a memory system's opening. */
  static opened(service: AnalysisService, opened: OpenedSystemDataset<'memory'>, uri: vscode.Uri): MemoryDataset {
    return new MemoryDataset(service, opened, uri, opened.opened);
  }

  /** The dataset of all samples (itself, or the one a selection was made in). */
  override get wholeRun(): MemoryDataset {
    return this.selectionOf?.whole ?? this;
  }

  /** Whether this is the editor profile of a selection of the panel. */
  get isSelection(): boolean {
    return this.selectionOf !== undefined;
  }

  override get name(): string {
    const s = this.selectionOf;
    if (!s) return super.name;
    return vscode.l10n.t('{0} [selection: {1} samples]', s.whole.name, formatCount(s.samples));
  }

  /** A request to the memory system, about the samples (a selection asks the dataset it was made in). */
  request<K extends MemoryShape['request']['kind']>(
    request: Extract<MemoryShape['request'], { kind: K }>,
  ): Promise<MemoryShape['results'][K]> {
    return this.service.systemRequest({
      dataset: this.wholeRun.handle,
      system: 'memory',
      request,
    }) as Promise<MemoryShape['results'][K]>;
  }

  /**
   * The editor profile of the panel's current selection (or of the visible samples when some are
   * hidden) as a dataset of its own, held by the analysis service; null when nothing is selected or
   * hidden (then this dataset's own overlays apply).
   */
  async selectionDataset(): Promise<MemoryDataset | null> {
    const whole = this.wholeRun;
    const model = await whole.request({ kind: 'selectionProfile' });
    if (!model) return null;
    const opened = await this.service.adoptShared(model);
    const k = opened.data.metrics.findIndex(m => m.name === 'samples');
    let samples = 0;
    const values = k >= 0 ? opened.data.exclusive[k] : null;
    for (const v of (values && (isSparse(values) ? values.values : values)) || []) samples += v;
    return new MemoryDataset(this.service, opened, whole.uri, whole.memory, { whole, samples });
  }

  protected override async afterDerive(): Promise<void> {
    this.lensLines = undefined;
  }

  // ── What the overlays ask ────────────────────────────────────────────────────────────────────

  /** The value of metric `name` (cycles, `L3 samples`…) summed over nodes (0 when the profile lacks it). */
  private metricValue(name: string, nodes: readonly number[]): number {
    const m = this.profile.metricIndex(name);
    return m >= 0 ? nodeSetValues(this.profile, m, nodes).exclusive : 0;
  }

  /** Cycles, samples and both per serving level of a set of nodes. */
  private costOf(nodes: readonly number[]): LevelCost {
    return {
      cycles: this.metricValue('cycles', nodes),
      samples: this.metricValue('samples', nodes),
      levelSamples: MEMORY_LEVELS.map(l => this.metricValue(`${l} samples`, nodes)),
      levelCycles: MEMORY_LEVELS.map(l => this.metricValue(`${l} cycles`, nodes)),
    };
  }

  override heatAnnotation(line: LineCost): string {
    return lineAnnotation(this.costOf(line.nodes));
  }

  /** The nodes a function-like node of the editor profile owns (a line: itself and its variables). */
  private ownedNodes(fn: number): number[] {
    const owner = this.functions.functionOfNode;
    const out: number[] = [];
    for (let i = 0; i < owner.length; i++) if (owner[i] === fn) out.push(i);
    return out;
  }

  /** The variables under a line node, by cycles. */
  private variablesOf(nodes: readonly number[]): { name: string; node: number; cost: LevelCost }[] {
    const tree = this.profile.tree;
    return nodes
      .filter(n => tree.kind(n) === NodeKind.Statement)
      .map(n => ({ name: tree.name(n), node: n, cost: this.costOf([n]) }))
      .filter(v => v.cost.samples > 0)
      .sort((a, b) => b.cost.cycles - a.cost.cycles);
  }

  /** The hottest lines of each file (by the selected metric) get a CodeLens. */
  private linesWithLens(): Set<number> {
    if (this.lensLines) return this.lensLines;
    const byFile = new Map<string, number[]>();
    const tree = this.profile.tree;
    const { names, exclusive, functionOfNode } = this.functions;
    for (let node = 0; node < tree.size; node++) {
      if (tree.kind(node) !== NodeKind.Function) continue;
      const fn = functionOfNode[node]!;
      const file = tree.file(node);
      if (fn < 0 || !file || !(exclusive[fn]! > 0)) continue;
      let list = byFile.get(file);
      if (!list) byFile.set(file, (list = []));
      list.push(fn);
    }
    this.lensLines = new Set();
    for (const list of byFile.values())
      list
        .sort((a, b) => exclusive[b]! - exclusive[a]! || names[a]!.localeCompare(names[b]!))
        .slice(0, LENSES_PER_FILE)
        .forEach(fn => this.lensLines!.add(fn));
    return this.lensLines;
  }

  override lens(fn: number): LensContent | undefined {
    if (!this.linesWithLens().has(fn)) return undefined;
    const nodes = this.ownedNodes(fn);
    const line = nodes.find(n => this.profile.tree.kind(n) === NodeKind.Function);
    if (line === undefined) return undefined;
    const tree = this.profile.tree;
    const file = tree.file(line)!;
    const at = tree.line(line)!;
    const cost = this.costOf(nodes);
    const variables = this.variablesOf(nodes)
      .slice(0, LENS_VARIABLES)
      .map(v => `${v.name} ${formatShare(cost.cycles > 0 ? v.cost.cycles / cost.cycles : 0)}`);
    const total = this.metricTotals[this.profile.metricIndex('cycles')] ?? 0;
    return {
      title: [`$(telescope) ${vscode.l10n.t('Open in Memory view')}`, ...variables].join(' · '),
      tooltip: vscode.l10n.t(
        '{0}:{1}: {2} in {3} samples ({4} of the sampled cycles of {5}). Click to open the Memory view with the samples of this line selected.',
        file,
        String(at),
        formatCycles(cost.cycles),
        formatCount(cost.samples),
        total > 0 ? formatShare(cost.cycles / total) : '–',
        this.name,
      ),
      command: SHOW_MEMORY_COMMAND,
      arguments: [{ file, line: at }],
    };
  }

  override async hover(place: HoverPlace): Promise<vscode.MarkdownString | undefined> {
    const { subject, word } = place;
    const lineNodes = subject ? this.subjectNodes(subject) : [];
    const variables = lineNodes.length ? this.variablesOf(lineNodes) : [];
    const here = word ? variables.find(v => v.name === word) : undefined;
    const everywhere = word ? this.variableEverywhere(word) : undefined;
    if (!subject && !everywhere) return undefined;
    const out = new vscode.MarkdownString();
    const total = this.metricTotals[this.profile.metricIndex('cycles')] ?? 0;
    const where = lineNodes.length ? this.locationOf(lineNodes, place.fileName, subject!) : undefined;
    if (here || (everywhere && !where)) {
      // A variable's name: its loads on this line (when it is touched here), then everywhere.
      const name = word!;
      if (here && where) {
        const line = this.costOf(lineNodes);
        out.appendMarkdown(
          `**${code(name)}** ${vscode.l10n.t('at {0}', md(where))} · ${formatCycles(here.cost.cycles)} ${vscode.l10n.t('in {0} samples', formatCount(here.cost.samples))} · ${formatShare(line.cycles > 0 ? here.cost.cycles / line.cycles : 0)} ${vscode.l10n.t("of the line's cycles")}\n\n`,
        );
        out.appendMarkdown(levelTable(here.cost));
      }
      if (everywhere) {
        out.appendMarkdown(
          `**${code(name)}** ${vscode.l10n.t('everywhere')}: ${formatCycles(everywhere.cycles)} ${vscode.l10n.t('in {0} samples', formatCount(everywhere.samples))} · ${formatShare(total > 0 ? everywhere.cycles / total : 0)} ${vscode.l10n.t('of all sampled cycles')}\n\n`,
        );
        if (!here) out.appendMarkdown(levelTable(everywhere));
      }
    } else {
      // The line: its levels, the variables it touches, its spread over the PUs.
      const cost = this.costOf(lineNodes);
      if (!(cost.samples > 0)) return undefined;
      out.appendMarkdown(
        `**${md(where ?? place.fileName)}** · ${formatCycles(cost.cycles)} ${vscode.l10n.t('in {0} samples', formatCount(cost.samples))} · ${formatShare(total > 0 ? cost.cycles / total : 0)} ${vscode.l10n.t('of all sampled cycles')}\n\n`,
      );
      out.appendMarkdown(levelTable(cost));
      if (variables.length)
        out.appendMarkdown(
          `**${vscode.l10n.t('Variables')}:** ${variables
            .slice(0, 8)
            .map(
              v =>
                `${code(v.name)} ${formatCycles(v.cost.cycles)} (${formatShare(cost.cycles > 0 ? v.cost.cycles / cost.cycles : 0)})`,
            )
            .join(
              ' · ',
            )}${variables.length > 8 ? ` · ${vscode.l10n.t('{0} more', String(variables.length - 8))}` : ''}\n\n`,
        );
      out.appendMarkdown(rankSpreadMarkdown(this, { kind: 'line', line: 0, at: 0, nodes: lineNodes, owner: -1 }));
    }
    out.appendMarkdown(`*HPC Lens · ${md(this.name)}*`);
    return out;
  }

  /** The editor-profile nodes a hover subject stands for (a line: the line node and its variables). */
  private subjectNodes(subject: HoverSubject): number[] {
    return subject.kind === 'line' ? subject.nodes : this.ownedNodes(subject.fn);
  }

  /** `LULESH_OMP.cc:2035` (the line as the samples name it). */
  private locationOf(nodes: readonly number[], fileName: string, subject: HoverSubject): string {
    const tree = this.profile.tree;
    const line = nodes.find(n => tree.line(n) !== null);
    if (line === undefined) return fileName;
    const at = subject.kind === 'line' ? subject.at : tree.line(line)!;
    return `${fileName}:${at}`;
  }

  /** A variable's cost over every line, or undefined when no sample names it. */
  private variableEverywhere(name: string): LevelCost | undefined {
    const tree = this.profile.tree;
    const nodes: number[] = [];
    for (let i = 0; i < tree.size; i++) if (tree.kind(i) === NodeKind.Statement && tree.name(i) === name) nodes.push(i);
    if (!nodes.length) return undefined;
    const cost = this.costOf(nodes);
    return cost.samples > 0 ? cost : undefined;
  }
}

/** Samples, cycles, cycles per access and share of the cycles per serving level. */
function levelTable(cost: LevelCost): string {
  let text = `| ${vscode.l10n.t('served by')} | ${vscode.l10n.t('samples')} | ${vscode.l10n.t('share')} | ${vscode.l10n.t('cycles')} | ${vscode.l10n.t('cycles/access')} |\n|:--|--:|--:|--:|--:|\n`;
  for (const l of [1, 2, 3, 4, 0]) {
    const s = cost.levelSamples[l]!;
    if (s === 0) continue;
    const c = cost.levelCycles[l]!;
    text += `| ${MEMORY_LEVELS[l]} | ${formatCount(s)} | ${formatLevelShare(cost.samples > 0 ? s / cost.samples : 0)} | ${formatCycles(c)} | ${Math.round(c / s)} |\n`;
  }
  return text + '\n';
}
