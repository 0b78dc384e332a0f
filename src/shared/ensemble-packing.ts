/**
 * The ensemble-Sankey's data (`EnsembleGraphData`) in packed form for the wire (issue 24,
 * transferable messages), with the codec of `packed-payload.ts` as the CallFlow Sankey uses it
 * (`callflow-packing.ts`): per-node and per-link numbers as typed-array columns; the per-run values,
 * histograms, sparklines, entries, callers and folded callees as offsets + columns; every string
 * once in a table; a missing run value (null) as NaN (the graph's numbers are otherwise finite).
 * The analysis service packs, the extension host forwards the payload untouched (reading one node
 * when the user opens its source, through an {@link EnsembleGraphReader}), and the webview unpacks
 * it into the objects its views draw. A selection's linked-view data crosses the same way with its
 * metric-correlation points packed ({@link packEnsembleDetail}).
 */
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleHistogram,
  EnsembleLinkData,
  EnsembleNodeData,
  EnsembleRunInfo,
  MetricCorrelationData,
} from './ensemble-protocol';
import {
  allocateColumns,
  decodeColumns,
  encodePayload,
  packLine,
  StringTable,
  unpackedFields,
  unpackLine,
  type ColumnsOf,
  type PackedPayload,
  PackedNodesReader,
} from './packed-payload';

/** The packed columns of an ensemble graph (names as on the wire; a prefix names the list a column belongs to). */
const ENSEMBLE_COLUMNS = {
  nodeId: Int32Array,
  nodeLabel: Int32Array,
  nodeModule: Int32Array,
  nodeBase: Int32Array,
  nodeKind: Uint8Array,
  nodeFlags: Uint8Array,
  nodeOccurrence: Float64Array,
  nodeMaxInclusive: Float64Array,
  nodeMaxExclusive: Float64Array,
  nodeMinInclusive: Float64Array,
  nodeMinExclusive: Float64Array,
  nodeMaxInclusiveRun: Float64Array,
  nodeMaxExclusiveRun: Float64Array,
  nodePresent: Float64Array,
  nodeEntryCount: Float64Array,
  nodeMemberCount: Float64Array,
  nodeFunctionCount: Float64Array,
  nodeFilteredCalleeCount: Float64Array,
  nodeOmittedInclusive: Float64Array,
  /** Gradient histograms: [min, max] per node and side, bin counts by offsets. */
  nodeGradInclusiveMin: Float64Array,
  nodeGradInclusiveMax: Float64Array,
  nodeGradExclusiveMin: Float64Array,
  nodeGradExclusiveMax: Float64Array,
  gradInclusiveOffsets: Int32Array,
  gradInclusiveCounts: Float64Array,
  gradExclusiveOffsets: Int32Array,
  gradExclusiveCounts: Float64Array,
  /** Mode `target` and mode `diff` (NaN = null). */
  nodeTargetInclusive: Float64Array,
  nodeTargetExclusive: Float64Array,
  nodeTargetBinInclusive: Float64Array,
  nodeTargetBinExclusive: Float64Array,
  nodeDiffExclusive: Float64Array,
  nodeDiffInclusive: Float64Array,
  nodeDiffBaseline: Float64Array,
  nodeDiffCompare: Float64Array,
  /** Per selected run (NaN = missing in the run). */
  runOffsets: Int32Array,
  runInclusive: Float64Array,
  runExclusive: Float64Array,
  /** Per order level (NaN = missing at every run of the level). */
  sparkOffsets: Int32Array,
  sparkInclusive: Float64Array,
  sparkExclusive: Float64Array,
  entriesOffsets: Int32Array,
  entriesName: Int32Array,
  entriesMaxInclusive: Float64Array,
  entriesFile: Int32Array,
  entriesLine: Int32Array,
  callersOffsets: Int32Array,
  callersId: Int32Array,
  callersValue: Float64Array,
  calleesOffsets: Int32Array,
  calleesName: Int32Array,
  calleesMaxInclusive: Float64Array,
  calleesCount: Float64Array,
  calleesFile: Int32Array,
  calleesLine: Int32Array,
  linkSource: Int32Array,
  linkTarget: Int32Array,
  linkFlags: Uint8Array,
  linkValue: Float64Array,
  linkTargetValue: Float64Array,
  linkDiff: Float64Array,
  /** The ensemble's runs (`graph.runs`): per run, and per run × parameter key (a number, or a string: -1 = a number, -2 = absent). */
  infoIndex: Float64Array,
  infoName: Int32Array,
  infoPath: Int32Array,
  infoFormat: Int32Array,
  infoRanks: Float64Array,
  infoTotal: Float64Array,
  paramNumber: Float64Array,
  paramString: Int32Array,
} as const;

type EnsembleColumns = ColumnsOf<typeof ENSEMBLE_COLUMNS>;
export type EnsembleColumnName = keyof EnsembleColumns;

/** What the packed graph's JSON header holds. */
export interface EnsemblePackHeader {
  /** The graph's own fields (title, metric, order, filter…), without nodes, links and runs. */
  graph: Omit<EnsembleGraphData, 'nodes' | 'links' | 'runs'>;
  /** Every parameter key of the runs, in first-seen order (the `param*` columns' row width). */
  parameterKeys: string[];
  runCount: number;
  /** Every string the columns index (-1 = null). */
  strings: string[];
  nodeCount: number;
  linkCount: number;
  /** Per node, its fields that have no column, or null (none today: a field added later crosses here). */
  rest: (Partial<EnsembleNodeData> | null)[];
}

/** An ensemble graph on the wire: `EnsembleGraphData` with its nodes and links packed into columns. */
export type PackedEnsembleGraph = PackedPayload<EnsemblePackHeader, EnsembleColumnName>;

/** Which optional node fields are present (bits of `nodeFlags`). */
const enum Has {
  RunValues = 1 << 0,
  Target = 1 << 1,
  Diff = 1 << 2,
  Sparkline = 1 << 3,
  OutOfOrder = 1 << 4,
  FilteredCallees = 1 << 5,
  FilteredCalleeCount = 1 << 6,
  OmittedInclusive = 1 << 7,
}
/** Which optional link fields are present (bits of `linkFlags`). */
const enum LinkHas {
  TargetValue = 1 << 0,
  Diff = 1 << 1,
}

const KINDS = ['module', 'entry', 'caller', 'function'] as const;

/** The node fields the columns carry; any other field crosses in the header's `rest`. */
const PACKED_NODE_FIELDS = new Set<string>([
  'id',
  'label',
  'module',
  'kind',
  'baseId',
  'occurrence',
  'maxInclusive',
  'maxExclusive',
  'minInclusive',
  'minExclusive',
  'maxInclusiveRun',
  'maxExclusiveRun',
  'present',
  'runValues',
  'gradient',
  'target',
  'diff',
  'sparkline',
  'entries',
  'entryCount',
  'callers',
  'memberCount',
  'functionCount',
  'filteredCallees',
  'filteredCalleeCount',
  'omittedInclusive',
]);

const packNullable = (v: number | null): number => (v === null ? NaN : v);
/** Writes an optional field's value at `at` when it is present; returns its presence bit, or 0. */
const optional = (v: number | undefined, bit: number, column: Float64Array, at: number): number => {
  if (v === undefined) return 0;
  column[at] = v;
  return bit;
};
const unpackNullable = (v: number): number | null => (v === v ? v : null);

/** Which nested list a column belongs to (its name's prefix), for sizing. */
const LISTS = [
  'gradInclusive',
  'gradExclusive',
  'run',
  'spark',
  'entries',
  'callers',
  'callees',
  'link',
  'info',
  'param',
] as const;
type ListName = (typeof LISTS)[number];

/** Packs an ensemble graph for the wire (a fresh buffer: nothing the caller keeps is transferred). */
export function packEnsembleGraph(data: EnsembleGraphData): PackedEnsembleGraph {
  const { nodes, links, runs, ...graph } = data;
  const N = nodes.length;
  const strings = new StringTable();
  const parameterKeys = [...new Set(runs.flatMap(r => Object.keys(r.parameters)))];
  const zeros = () => Object.fromEntries(LISTS.map(l => [l, 0])) as Record<ListName, number>;
  const total = { ...zeros(), link: links.length, info: runs.length, param: runs.length * parameterKeys.length };
  for (const n of nodes) {
    total.gradInclusive += n.gradient.inclusive.counts.length;
    total.gradExclusive += n.gradient.exclusive.counts.length;
    total.run += n.runValues?.inclusive.length ?? 0;
    total.spark += n.sparkline?.inclusive.length ?? 0;
    total.entries += n.entries.length;
    total.callers += n.callers.length;
    total.callees += n.filteredCallees?.length ?? 0;
  }
  const c = allocateColumns(ENSEMBLE_COLUMNS, name => {
    const list = LISTS.find(l => name.startsWith(l));
    if (!list) return N;
    return name.endsWith('Offsets') ? N + 1 : total[list as ListName];
  });
  const rest: EnsemblePackHeader['rest'] = new Array<null>(N).fill(null);
  /** Where each list's next element goes. */
  const at = zeros();
  /** Appends paired value lists (inclusive, exclusive: one length) at list `list`'s cursor. */
  const pairs = (
    list: 'run' | 'spark',
    id: string,
    v: { inclusive: (number | null)[]; exclusive: (number | null)[] },
    into: [Float64Array, Float64Array],
  ) => {
    if (v.exclusive.length !== v.inclusive.length)
      throw new RangeError(
        `node ${id}: ${v.inclusive.length} inclusive but ${v.exclusive.length} exclusive ${list} values`,
      );
    for (let k = 0; k < v.inclusive.length; k++) {
      into[0][at[list] + k] = packNullable(v.inclusive[k]!);
      into[1][at[list] + k] = packNullable(v.exclusive[k]!);
    }
    at[list] += v.inclusive.length;
  };
  nodes.forEach((n, i) => {
    c.nodeId[i] = strings.add(n.id);
    c.nodeLabel[i] = strings.add(n.label);
    c.nodeModule[i] = strings.add(n.module);
    c.nodeBase[i] = strings.add(n.baseId);
    c.nodeKind[i] = KINDS.indexOf(n.kind);
    c.nodeOccurrence[i] = n.occurrence;
    c.nodeMaxInclusive[i] = n.maxInclusive;
    c.nodeMaxExclusive[i] = n.maxExclusive;
    c.nodeMinInclusive[i] = n.minInclusive;
    c.nodeMinExclusive[i] = n.minExclusive;
    c.nodeMaxInclusiveRun[i] = n.maxInclusiveRun;
    c.nodeMaxExclusiveRun[i] = n.maxExclusiveRun;
    c.nodePresent[i] = n.present;
    c.nodeEntryCount[i] = n.entryCount;
    c.nodeMemberCount[i] = n.memberCount;
    c.nodeFunctionCount[i] = n.functionCount;
    let flags = 0;
    const histogram = (
      h: EnsembleHistogram,
      min: Float64Array,
      max: Float64Array,
      list: 'gradInclusive' | 'gradExclusive',
    ) => {
      min[i] = h.min;
      max[i] = h.max;
      c[`${list}Offsets`][i] = at[list];
      c[`${list}Counts`].set(h.counts, at[list]);
      at[list] += h.counts.length;
    };
    histogram(n.gradient.inclusive, c.nodeGradInclusiveMin, c.nodeGradInclusiveMax, 'gradInclusive');
    histogram(n.gradient.exclusive, c.nodeGradExclusiveMin, c.nodeGradExclusiveMax, 'gradExclusive');
    c.runOffsets[i] = at.run;
    if (n.runValues) {
      flags |= Has.RunValues;
      pairs('run', n.id, n.runValues, [c.runInclusive, c.runExclusive]);
    }
    c.sparkOffsets[i] = at.spark;
    if (n.sparkline) {
      flags |= Has.Sparkline | (n.sparkline.outOfOrder ? Has.OutOfOrder : 0);
      pairs('spark', n.id, n.sparkline, [c.sparkInclusive, c.sparkExclusive]);
    }
    if (n.target) {
      flags |= Has.Target;
      c.nodeTargetInclusive[i] = packNullable(n.target.inclusive);
      c.nodeTargetExclusive[i] = packNullable(n.target.exclusive);
      c.nodeTargetBinInclusive[i] = n.target.binInclusive;
      c.nodeTargetBinExclusive[i] = n.target.binExclusive;
    }
    if (n.diff) {
      flags |= Has.Diff;
      c.nodeDiffExclusive[i] = packNullable(n.diff.exclusive);
      c.nodeDiffInclusive[i] = packNullable(n.diff.inclusive);
      c.nodeDiffBaseline[i] = packNullable(n.diff.baseline);
      c.nodeDiffCompare[i] = packNullable(n.diff.compare);
    }
    c.entriesOffsets[i] = at.entries;
    for (const e of n.entries) {
      c.entriesName[at.entries] = strings.add(e.name);
      c.entriesMaxInclusive[at.entries] = e.maxInclusive;
      c.entriesFile[at.entries] = strings.add(e.file);
      c.entriesLine[at.entries++] = packLine(e.line);
    }
    c.callersOffsets[i] = at.callers;
    for (const k of n.callers) {
      c.callersId[at.callers] = strings.add(k.id);
      c.callersValue[at.callers++] = k.value;
    }
    c.calleesOffsets[i] = at.callees;
    if (n.filteredCallees) {
      flags |= Has.FilteredCallees;
      for (const k of n.filteredCallees) {
        c.calleesName[at.callees] = strings.add(k.name);
        c.calleesMaxInclusive[at.callees] = k.maxInclusive;
        c.calleesCount[at.callees] = k.count;
        c.calleesFile[at.callees] = strings.add(k.file);
        c.calleesLine[at.callees++] = packLine(k.line);
      }
    }
    flags |= optional(n.filteredCalleeCount, Has.FilteredCalleeCount, c.nodeFilteredCalleeCount, i);
    flags |= optional(n.omittedInclusive, Has.OmittedInclusive, c.nodeOmittedInclusive, i);
    c.nodeFlags[i] = flags;
    rest[i] = unpackedFields(n, PACKED_NODE_FIELDS);
  });
  for (const list of ['gradInclusive', 'gradExclusive', 'run', 'spark', 'entries', 'callers', 'callees'] as const)
    c[`${list}Offsets`][N] = at[list];
  links.forEach((l, i) => {
    c.linkSource[i] = strings.add(l.source);
    c.linkTarget[i] = strings.add(l.target);
    c.linkValue[i] = l.value;
    c.linkFlags[i] =
      optional(l.targetValue, LinkHas.TargetValue, c.linkTargetValue, i) |
      optional(l.diff, LinkHas.Diff, c.linkDiff, i);
  });
  runs.forEach((r, i) => {
    c.infoIndex[i] = r.index;
    c.infoName[i] = strings.add(r.name);
    c.infoPath[i] = strings.add(r.path);
    c.infoFormat[i] = strings.add(r.format);
    c.infoRanks[i] = r.ranks;
    c.infoTotal[i] = r.total;
    parameterKeys.forEach((key, k) => {
      const v = r.parameters[key];
      const at = i * parameterKeys.length + k;
      c.paramString[at] = v === undefined ? -2 : typeof v === 'number' ? -1 : strings.add(v);
      if (typeof v === 'number') c.paramNumber[at] = v;
    });
  });
  return encodePayload<EnsemblePackHeader, EnsembleColumns>(
    {
      graph,
      parameterKeys,
      runCount: runs.length,
      strings: strings.strings,
      nodeCount: N,
      linkCount: links.length,
      rest,
    },
    c,
  );
}

/** Reads a packed ensemble graph: its columns as views, nodes made one at a time on request. */
export class EnsembleGraphReader extends PackedNodesReader<EnsembleNodeData> {
  private readonly c: EnsembleColumns;

  constructor(readonly packed: PackedEnsembleGraph) {
    const c = decodeColumns<EnsembleColumns>(packed);
    super('packed ensemble graph', packed.header.strings, c.nodeId);
    this.c = c;
    const { nodeCount, linkCount, runCount, parameterKeys } = packed.header;
    if (
      c.nodeId.length !== nodeCount ||
      c.linkValue.length !== linkCount ||
      c.infoName.length !== runCount ||
      c.paramString.length !== runCount * parameterKeys.length
    )
      throw new RangeError(
        `packed ensemble graph: header says ${nodeCount} nodes, ${linkCount} links and ${runCount} runs, the columns hold ${c.nodeId.length}, ${c.linkValue.length} and ${c.infoName.length}`,
      );
  }

  /** The graph's fields other than nodes, links and runs (selected runs, order, filter…). */
  get graph(): EnsemblePackHeader['graph'] {
    return this.packed.header.graph;
  }

  /** The ensemble's runs (`EnsembleGraphData.runs`). */
  runs(): EnsembleRunInfo[] {
    const c = this.c;
    const keys = this.packed.header.parameterKeys;
    const out: EnsembleRunInfo[] = new Array(this.packed.header.runCount);
    for (let i = 0; i < out.length; i++) {
      const parameters: EnsembleRunInfo['parameters'] = {};
      keys.forEach((key, k) => {
        const at = i * keys.length + k;
        const s = c.paramString[at]!;
        if (s === -1) parameters[key] = c.paramNumber[at]!;
        else if (s >= 0) parameters[key] = this.str(s);
      });
      out[i] = {
        index: c.infoIndex[i]!,
        name: this.str(c.infoName[i]!),
        path: this.str(c.infoPath[i]!),
        format: this.str(c.infoFormat[i]!),
        ranks: c.infoRanks[i]!,
        parameters,
        total: c.infoTotal[i]!,
      };
    }
    return out;
  }

  /** Node `i` as the views' object. */
  node(i: number): EnsembleNodeData {
    const c = this.c;
    const flags = c.nodeFlags[i]!;
    const range = (offsets: Int32Array) => [offsets[i]!, offsets[i + 1]!] as const;
    const histogram = (min: Float64Array, max: Float64Array, offsets: Int32Array, counts: Float64Array) => {
      const [a, b] = range(offsets);
      return { min: min[i]!, max: max[i]!, counts: Array.from(counts.subarray(a, b)) };
    };
    const values = (offsets: Int32Array, inclusive: Float64Array, exclusive: Float64Array) => {
      const [a, b] = range(offsets);
      return {
        inclusive: Array.from(inclusive.subarray(a, b), unpackNullable),
        exclusive: Array.from(exclusive.subarray(a, b), unpackNullable),
      };
    };
    const kind = KINDS[c.nodeKind[i]!];
    if (!kind) throw new RangeError(`packed ensemble graph: node ${this.id(i)} has kind ${c.nodeKind[i]}`);
    const n: EnsembleNodeData = {
      id: this.id(i),
      label: this.str(c.nodeLabel[i]!),
      module: this.str(c.nodeModule[i]!),
      kind,
      baseId: this.str(c.nodeBase[i]!),
      occurrence: c.nodeOccurrence[i]!,
      maxInclusive: c.nodeMaxInclusive[i]!,
      maxExclusive: c.nodeMaxExclusive[i]!,
      minInclusive: c.nodeMinInclusive[i]!,
      minExclusive: c.nodeMinExclusive[i]!,
      maxInclusiveRun: c.nodeMaxInclusiveRun[i]!,
      maxExclusiveRun: c.nodeMaxExclusiveRun[i]!,
      present: c.nodePresent[i]!,
      gradient: {
        inclusive: histogram(
          c.nodeGradInclusiveMin,
          c.nodeGradInclusiveMax,
          c.gradInclusiveOffsets,
          c.gradInclusiveCounts,
        ),
        exclusive: histogram(
          c.nodeGradExclusiveMin,
          c.nodeGradExclusiveMax,
          c.gradExclusiveOffsets,
          c.gradExclusiveCounts,
        ),
      },
      entries: this.entries(i),
      entryCount: c.nodeEntryCount[i]!,
      callers: [],
      memberCount: c.nodeMemberCount[i]!,
      functionCount: c.nodeFunctionCount[i]!,
    };
    if (flags & Has.RunValues) n.runValues = values(c.runOffsets, c.runInclusive, c.runExclusive);
    if (flags & Has.Target)
      n.target = {
        inclusive: unpackNullable(c.nodeTargetInclusive[i]!),
        exclusive: unpackNullable(c.nodeTargetExclusive[i]!),
        binInclusive: c.nodeTargetBinInclusive[i]!,
        binExclusive: c.nodeTargetBinExclusive[i]!,
      };
    if (flags & Has.Diff)
      n.diff = {
        exclusive: unpackNullable(c.nodeDiffExclusive[i]!),
        inclusive: unpackNullable(c.nodeDiffInclusive[i]!),
        baseline: unpackNullable(c.nodeDiffBaseline[i]!),
        compare: unpackNullable(c.nodeDiffCompare[i]!),
      };
    if (flags & Has.Sparkline)
      n.sparkline = {
        ...values(c.sparkOffsets, c.sparkInclusive, c.sparkExclusive),
        outOfOrder: (flags & Has.OutOfOrder) !== 0,
      };
    for (let k = c.callersOffsets[i]!; k < c.callersOffsets[i + 1]!; k++)
      n.callers.push({ id: this.str(c.callersId[k]!), value: c.callersValue[k]! });
    if (flags & Has.FilteredCallees) n.filteredCallees = this.filteredCallees(i);
    if (flags & Has.FilteredCalleeCount) n.filteredCalleeCount = c.nodeFilteredCalleeCount[i]!;
    if (flags & Has.OmittedInclusive) n.omittedInclusive = c.nodeOmittedInclusive[i]!;
    const extra = this.packed.header.rest[i];
    return extra ? { ...n, ...extra } : n;
  }

  /** Node `i`'s entry functions (what a click on the node opens), without making the node. */
  entries(i: number): EnsembleNodeData['entries'] {
    const c = this.c;
    const out: EnsembleNodeData['entries'] = [];
    for (let k = c.entriesOffsets[i]!; k < c.entriesOffsets[i + 1]!; k++)
      out.push({
        name: this.str(c.entriesName[k]!),
        maxInclusive: c.entriesMaxInclusive[k]!,
        file: this.strOrNull(c.entriesFile[k]!),
        line: unpackLine(c.entriesLine[k]!),
      });
    return out;
  }

  /** Node `i`'s folded functions, or undefined when it has none listed. */
  filteredCallees(i: number): EnsembleNodeData['filteredCallees'] {
    const c = this.c;
    if (!(c.nodeFlags[i]! & Has.FilteredCallees)) return undefined;
    const out: NonNullable<EnsembleNodeData['filteredCallees']> = [];
    for (let k = c.calleesOffsets[i]!; k < c.calleesOffsets[i + 1]!; k++)
      out.push({
        name: this.str(c.calleesName[k]!),
        maxInclusive: c.calleesMaxInclusive[k]!,
        count: c.calleesCount[k]!,
        file: this.strOrNull(c.calleesFile[k]!),
        line: unpackLine(c.calleesLine[k]!),
      });
    return out;
  }

  links(): EnsembleLinkData[] {
    const c = this.c;
    const out: EnsembleLinkData[] = new Array(c.linkValue.length);
    for (let i = 0; i < out.length; i++) {
      const l: EnsembleLinkData = {
        source: this.str(c.linkSource[i]!),
        target: this.str(c.linkTarget[i]!),
        value: c.linkValue[i]!,
      };
      if (c.linkFlags[i]! & LinkHas.TargetValue) l.targetValue = c.linkTargetValue[i]!;
      if (c.linkFlags[i]! & LinkHas.Diff) l.diff = c.linkDiff[i]!;
      out[i] = l;
    }
    return out;
  }

  /** The whole graph as the views draw it. */
  unpack(): EnsembleGraphData {
    const nodes: EnsembleNodeData[] = new Array(this.nodeCount);
    for (let i = 0; i < nodes.length; i++) nodes[i] = this.node(i);
    return { ...this.packed.header.graph, runs: this.runs(), nodes, links: this.links() };
  }
}

/** The views' `EnsembleGraphData` of a packed graph. */
export function unpackEnsembleGraph(packed: PackedEnsembleGraph): EnsembleGraphData {
  return new EnsembleGraphReader(packed).unpack();
}

const readers = new WeakMap<PackedEnsembleGraph, EnsembleGraphReader>();

/** The reader of a packed ensemble graph, made once per payload (the host asks it on each click). */
export function ensembleGraph(packed: PackedEnsembleGraph): EnsembleGraphReader {
  let r = readers.get(packed);
  if (!r) readers.set(packed, (r = new EnsembleGraphReader(packed)));
  return r;
}

/**
 * The metric-correlation view's points (one per call site × selected run: most of a selection's
 * message, 20,000 points at 1,000 runs) as columns; the rest of the linked views' data stays JSON.
 */
const CORRELATION_COLUMNS = {
  callSite: Int32Array,
  run: Int32Array,
  inclusive: Float64Array,
  exclusive: Float64Array,
} as const;
type CorrelationColumns = ColumnsOf<typeof CORRELATION_COLUMNS>;

/** Metric correlation on the wire: `MetricCorrelationData` with its point columns packed. */
export type PackedCorrelation = PackedPayload<
  Omit<MetricCorrelationData, keyof CorrelationColumns>,
  keyof CorrelationColumns
>;

/** The linked views' data on the wire: the correlation points packed. */
export type EnsembleDetailWire = Omit<EnsembleDetailData, 'correlation'> & { correlation: PackedCorrelation };

export function packEnsembleDetail(d: EnsembleDetailData): EnsembleDetailWire {
  const { correlation, ...rest } = d;
  const { callSite, run, inclusive, exclusive, ...header } = correlation;
  if (run.length !== callSite.length || inclusive.length !== callSite.length || exclusive.length !== callSite.length)
    throw new RangeError(
      `metric correlation: ${callSite.length} call sites, ${run.length} runs, ${inclusive.length} and ${exclusive.length} values`,
    );
  return {
    ...rest,
    correlation: encodePayload<typeof header, CorrelationColumns>(header, {
      callSite: CORRELATION_COLUMNS.callSite.from(callSite),
      run: CORRELATION_COLUMNS.run.from(run),
      inclusive: CORRELATION_COLUMNS.inclusive.from(inclusive),
      exclusive: CORRELATION_COLUMNS.exclusive.from(exclusive),
    }),
  };
}

/** The views' `EnsembleDetailData` of the wire form. */
export function unpackEnsembleDetail(w: EnsembleDetailWire): EnsembleDetailData {
  const { correlation, ...rest } = w;
  const c = decodeColumns<CorrelationColumns>(correlation);
  return {
    ...rest,
    correlation: {
      ...correlation.header,
      callSite: Array.from(c.callSite),
      run: Array.from(c.run),
      inclusive: Array.from(c.inclusive),
      exclusive: Array.from(c.exclusive),
    },
  };
}
