/**
 * The Sankey's level-of-detail data (`CallflowData`) in packed form for the wire: per-node and
 * per-link numbers as typed-array columns, nested lists (entries, callers, folded callees,
 * per-context values) as offsets + columns, every string once in a table. The worker packs, the
 * extension host forwards the payload untouched (looking up a node only when the user acts on
 * one), and the webview unpacks into the objects its views draw.
 */
import type {
  CallflowData,
  CallflowLinkData,
  CallflowNodeData,
  CallflowViewState,
  CallflowWireState,
} from './callflow-protocol';
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

/** The packed columns of a Sankey graph (names as on the wire). */
const CALLFLOW_COLUMNS = {
  nodeId: Int32Array,
  nodeLabel: Int32Array,
  nodeModule: Int32Array,
  nodeBase: Int32Array,
  nodeKind: Uint8Array,
  nodeFlags: Uint16Array,
  nodeInclusive: Float64Array,
  nodeExclusive: Float64Array,
  nodeShare: Float64Array,
  nodeImbalance: Float64Array,
  nodeFilteredInclusive: Float64Array,
  nodeOmittedInclusive: Float64Array,
  nodeOccurrence: Float64Array,
  nodeEntryCount: Float64Array,
  nodeMemberCount: Float64Array,
  nodeFunctionCount: Float64Array,
  nodeFilteredCalleeCount: Float64Array,
  entryName: Int32Array,
  entryFile: Int32Array,
  entryLine: Int32Array,
  contextOffsets: Int32Array,
  contextInclusive: Float64Array,
  contextExclusive: Float64Array,
  entriesOffsets: Int32Array,
  entriesName: Int32Array,
  entriesInclusive: Float64Array,
  entriesExclusive: Float64Array,
  entriesFile: Int32Array,
  entriesLine: Int32Array,
  callersOffsets: Int32Array,
  callersId: Int32Array,
  callersValue: Float64Array,
  callersShare: Float64Array,
  calleesOffsets: Int32Array,
  calleesName: Int32Array,
  calleesInclusive: Float64Array,
  calleesCount: Float64Array,
  calleesFile: Int32Array,
  calleesLine: Int32Array,
  linkSource: Int32Array,
  linkTarget: Int32Array,
  linkValue: Float64Array,
} as const;

type CallflowColumns = ColumnsOf<typeof CALLFLOW_COLUMNS>;
export type CallflowColumnName = keyof CallflowColumns;

/** What the packed graph's JSON header holds. */
export interface CallflowPackHeader {
  /** The graph's own fields (title, metric, contexts, filter, guard…), without nodes and links. */
  graph: Omit<CallflowData, 'nodes' | 'links'>;
  /** Every string the columns index (-1 = null). */
  strings: string[];
  nodeCount: number;
  linkCount: number;
  /** Per node, its fields that have no column (the histograms beyond the raw limit, a comparison's `diff`), or null. */
  rest: (Partial<CallflowNodeData> | null)[];
}

/** A Sankey graph on the wire: `CallflowData` with its nodes and links packed into columns. */
export type PackedCallflowData = PackedPayload<CallflowPackHeader, CallflowColumnName>;

/** Which optional node fields are present (bits of `nodeFlags`). */
const enum Has {
  Occurrence = 1 << 0,
  EntryCount = 1 << 1,
  MemberCount = 1 << 2,
  FunctionCount = 1 << 3,
  FilteredInclusive = 1 << 4,
  FilteredCalleeCount = 1 << 5,
  OmittedInclusive = 1 << 6,
  ContextValues = 1 << 7,
  Entries = 1 << 8,
  Callers = 1 << 9,
  FilteredCallees = 1 << 10,
}

const KINDS = [undefined, 'module', 'entry', 'caller', 'function'] as const;

/** The node fields the columns carry; any other field crosses in the header's `rest`. */
const PACKED_NODE_FIELDS = new Set<string>([
  'id',
  'label',
  'module',
  'inclusive',
  'exclusive',
  'share',
  'imbalance',
  'entry',
  'kind',
  'baseId',
  'occurrence',
  'contextValues',
  'entries',
  'entryCount',
  'callers',
  'memberCount',
  'functionCount',
  'filteredInclusive',
  'filteredCallees',
  'filteredCalleeCount',
  'omittedInclusive',
]);

/** Packs a graph for the wire (a fresh buffer: nothing the caller keeps is transferred). */
export function packCallflowData(data: CallflowData): PackedCallflowData {
  const { nodes, links, ...graph } = data;
  const N = nodes.length;
  const strings = new StringTable();
  const line = packLine;
  let contextCount = 0,
    entryCount = 0,
    callerCount = 0,
    calleeCount = 0;
  for (const n of nodes) {
    contextCount += n.contextValues?.inclusive.length ?? 0;
    entryCount += n.entries?.length ?? 0;
    callerCount += n.callers?.length ?? 0;
    calleeCount += n.filteredCallees?.length ?? 0;
  }
  const sizes: Partial<Record<CallflowColumnName, number>> = {
    contextOffsets: N + 1,
    contextInclusive: contextCount,
    contextExclusive: contextCount,
    entriesOffsets: N + 1,
    callersOffsets: N + 1,
    calleesOffsets: N + 1,
    linkSource: links.length,
    linkTarget: links.length,
    linkValue: links.length,
  };
  const c = allocateColumns(
    CALLFLOW_COLUMNS,
    name =>
      sizes[name] ??
      (name.startsWith('entries')
        ? entryCount
        : name.startsWith('callers')
          ? callerCount
          : name.startsWith('callees')
            ? calleeCount
            : N),
  );
  const rest: CallflowPackHeader['rest'] = new Array<null>(N).fill(null);
  let ctx = 0,
    en = 0,
    ca = 0,
    ce = 0;
  nodes.forEach((n, i) => {
    c.nodeId[i] = strings.add(n.id);
    c.nodeLabel[i] = strings.add(n.label);
    c.nodeModule[i] = strings.add(n.module);
    c.nodeBase[i] = strings.add(n.baseId);
    c.nodeKind[i] = n.kind === undefined ? 0 : KINDS.indexOf(n.kind);
    c.nodeInclusive[i] = n.inclusive;
    c.nodeExclusive[i] = n.exclusive;
    c.nodeShare[i] = n.share;
    c.nodeImbalance[i] = n.imbalance;
    c.entryName[i] = strings.add(n.entry.name);
    c.entryFile[i] = strings.add(n.entry.file);
    c.entryLine[i] = line(n.entry.line);
    let flags = 0;
    const scalar = (v: number | undefined, bit: Has, column: Float64Array) => {
      if (v === undefined) return;
      flags |= bit;
      column[i] = v;
    };
    scalar(n.occurrence, Has.Occurrence, c.nodeOccurrence);
    scalar(n.entryCount, Has.EntryCount, c.nodeEntryCount);
    scalar(n.memberCount, Has.MemberCount, c.nodeMemberCount);
    scalar(n.functionCount, Has.FunctionCount, c.nodeFunctionCount);
    scalar(n.filteredInclusive, Has.FilteredInclusive, c.nodeFilteredInclusive);
    scalar(n.filteredCalleeCount, Has.FilteredCalleeCount, c.nodeFilteredCalleeCount);
    scalar(n.omittedInclusive, Has.OmittedInclusive, c.nodeOmittedInclusive);
    c.contextOffsets[i] = ctx;
    if (n.contextValues) {
      flags |= Has.ContextValues;
      const { inclusive, exclusive } = n.contextValues;
      if (exclusive.length !== inclusive.length)
        throw new RangeError(
          `node ${n.id}: ${inclusive.length} inclusive but ${exclusive.length} exclusive context values`,
        );
      c.contextInclusive.set(inclusive, ctx);
      c.contextExclusive.set(exclusive, ctx);
      ctx += inclusive.length;
    }
    c.entriesOffsets[i] = en;
    if (n.entries) {
      flags |= Has.Entries;
      for (const e of n.entries) {
        c.entriesName[en] = strings.add(e.name);
        c.entriesInclusive[en] = e.inclusive;
        c.entriesExclusive[en] = e.exclusive;
        c.entriesFile[en] = strings.add(e.file);
        c.entriesLine[en++] = line(e.line);
      }
    }
    c.callersOffsets[i] = ca;
    if (n.callers) {
      flags |= Has.Callers;
      for (const k of n.callers) {
        c.callersId[ca] = strings.add(k.id);
        c.callersValue[ca] = k.value;
        c.callersShare[ca++] = k.share;
      }
    }
    c.calleesOffsets[i] = ce;
    if (n.filteredCallees) {
      flags |= Has.FilteredCallees;
      for (const k of n.filteredCallees) {
        c.calleesName[ce] = strings.add(k.name);
        c.calleesInclusive[ce] = k.inclusive;
        c.calleesCount[ce] = k.count;
        c.calleesFile[ce] = strings.add(k.file);
        c.calleesLine[ce++] = line(k.line);
      }
    }
    c.nodeFlags[i] = flags;
    rest[i] = unpackedFields(n, PACKED_NODE_FIELDS);
  });
  c.contextOffsets[N] = ctx;
  c.entriesOffsets[N] = en;
  c.callersOffsets[N] = ca;
  c.calleesOffsets[N] = ce;
  links.forEach((l, i) => {
    c.linkSource[i] = strings.add(l.source);
    c.linkTarget[i] = strings.add(l.target);
    c.linkValue[i] = l.value;
  });
  return encodePayload<CallflowPackHeader, CallflowColumns>(
    { graph, strings: strings.strings, nodeCount: N, linkCount: links.length, rest },
    c,
  );
}

/** Reads a packed graph: its columns as views, nodes made one at a time on request. */
export class CallflowGraphReader extends PackedNodesReader<CallflowNodeData> {
  private readonly c: CallflowColumns;

  constructor(readonly packed: PackedCallflowData) {
    const c = decodeColumns<CallflowColumns>(packed);
    super('packed Sankey graph', packed.header.strings, c.nodeId);
    this.c = c;
    const { nodeCount, linkCount } = packed.header;
    if (c.nodeId.length !== nodeCount || c.linkValue.length !== linkCount)
      throw new RangeError(
        `packed Sankey graph: header says ${nodeCount} nodes and ${linkCount} links, the columns hold ${c.nodeId.length} and ${c.linkValue.length}`,
      );
  }

  /** The base id of node `i` (its id when it has none). */
  baseId(i: number): string {
    const b = this.c.nodeBase[i]!;
    return b < 0 ? this.id(i) : this.str(b);
  }

  /** Node `i` as the views' object. */
  node(i: number): CallflowNodeData {
    const c = this.c;
    const line = unpackLine;
    const flags = c.nodeFlags[i]!;
    const n: CallflowNodeData = {
      id: this.id(i),
      label: this.str(c.nodeLabel[i]!),
      module: this.str(c.nodeModule[i]!),
      inclusive: c.nodeInclusive[i]!,
      exclusive: c.nodeExclusive[i]!,
      share: c.nodeShare[i]!,
      imbalance: c.nodeImbalance[i]!,
      entry: { name: this.str(c.entryName[i]!), file: this.strOrNull(c.entryFile[i]!), line: line(c.entryLine[i]!) },
    };
    const kind = KINDS[c.nodeKind[i]!];
    if (kind) n.kind = kind;
    if (c.nodeBase[i]! >= 0) n.baseId = this.str(c.nodeBase[i]!);
    if (flags & Has.Occurrence) n.occurrence = c.nodeOccurrence[i]!;
    if (flags & Has.ContextValues) {
      const [a, b] = [c.contextOffsets[i]!, c.contextOffsets[i + 1]!];
      n.contextValues = {
        inclusive: Array.from(c.contextInclusive.subarray(a, b)),
        exclusive: Array.from(c.contextExclusive.subarray(a, b)),
      };
    }
    if (flags & Has.Entries) {
      n.entries = [];
      for (let k = c.entriesOffsets[i]!; k < c.entriesOffsets[i + 1]!; k++)
        n.entries.push({
          name: this.str(c.entriesName[k]!),
          inclusive: c.entriesInclusive[k]!,
          exclusive: c.entriesExclusive[k]!,
          file: this.strOrNull(c.entriesFile[k]!),
          line: line(c.entriesLine[k]!),
        });
    }
    if (flags & Has.EntryCount) n.entryCount = c.nodeEntryCount[i]!;
    if (flags & Has.Callers) {
      n.callers = [];
      for (let k = c.callersOffsets[i]!; k < c.callersOffsets[i + 1]!; k++)
        n.callers.push({ id: this.str(c.callersId[k]!), value: c.callersValue[k]!, share: c.callersShare[k]! });
    }
    if (flags & Has.MemberCount) n.memberCount = c.nodeMemberCount[i]!;
    if (flags & Has.FunctionCount) n.functionCount = c.nodeFunctionCount[i]!;
    if (flags & Has.FilteredInclusive) n.filteredInclusive = c.nodeFilteredInclusive[i]!;
    if (flags & Has.FilteredCallees) {
      n.filteredCallees = [];
      for (let k = c.calleesOffsets[i]!; k < c.calleesOffsets[i + 1]!; k++)
        n.filteredCallees.push({
          name: this.str(c.calleesName[k]!),
          inclusive: c.calleesInclusive[k]!,
          count: c.calleesCount[k]!,
          file: this.strOrNull(c.calleesFile[k]!),
          line: line(c.calleesLine[k]!),
        });
    }
    if (flags & Has.FilteredCalleeCount) n.filteredCalleeCount = c.nodeFilteredCalleeCount[i]!;
    if (flags & Has.OmittedInclusive) n.omittedInclusive = c.nodeOmittedInclusive[i]!;
    const extra = this.packed.header.rest[i];
    return extra ? { ...n, ...extra } : n;
  }

  links(): CallflowLinkData[] {
    const c = this.c;
    const out: CallflowLinkData[] = new Array(c.linkValue.length);
    for (let i = 0; i < out.length; i++)
      out[i] = { source: this.str(c.linkSource[i]!), target: this.str(c.linkTarget[i]!), value: c.linkValue[i]! };
    return out;
  }

  /** The whole graph as the views draw it. */
  unpack(): CallflowData {
    const nodes: CallflowNodeData[] = new Array(this.nodeCount);
    for (let i = 0; i < nodes.length; i++) nodes[i] = this.node(i);
    return { ...this.packed.header.graph, nodes, links: this.links() };
  }
}

/** The views' `CallflowData` of a packed graph. */
export function unpackCallflowData(packed: PackedCallflowData): CallflowData {
  return new CallflowGraphReader(packed).unpack();
}

const readers = new WeakMap<PackedCallflowData, CallflowGraphReader>();

/** The reader of a packed graph, made once per payload (the host asks it on each click). */
export function callflowGraph(packed: PackedCallflowData): CallflowGraphReader {
  let r = readers.get(packed);
  if (!r) readers.set(packed, (r = new CallflowGraphReader(packed)));
  return r;
}

/** The panel's state as the view reads it: the second graph (brush split, run B) unpacked. */
export function unpackCallflowState(wire: CallflowWireState): CallflowViewState {
  const { second, ...rest } = wire;
  return second ? { ...rest, second: unpackCallflowData(second) } : rest;
}
