import { DbFile, named, u64Word, type Section } from './db-file';

/**
 * `meta.db` (FORMATS.md, "meta.db version 4.0"): run properties, identifier names, metric
 * descriptions with their propagation scopes, load modules, source files, functions and the
 * context tree. Everything a profile or trace reader needs to interpret `profile.db`, `cct.db` and
 * `trace.db`, which only carry context ids, metric ids and profile indices.
 */

/** `lexicalType` of a context; entry points (the roots, parent -1) get EntryPoint. */
export const LexicalType = { Function: 0, Loop: 1, Line: 2, Instruction: 3, EntryPoint: 255 } as const;
/** `relation` of a context to its parent. */
export const Relation = { Lexical: 0, Call: 1, InlinedCall: 2 } as const;
/** `type` of a propagation scope. */
export const ScopeType = { Custom: 0, Point: 1, Execution: 2, Transitive: 3 } as const;

export interface PropagationScope {
  name: string;
  type: number;
  propagationIndex: number;
}

export interface MetricDescription {
  name: string;
  /** The propagated variants: `propMetricId` is the id used in profile.db / cct.db. */
  scopes: { scope: PropagationScope; propMetricId: number }[];
  /** Summary statistics of the summary profile: `statMetricId` is the id used there. */
  summaries: { scope: PropagationScope; formula: string; combine: number; statMetricId: number }[];
}

export interface SourceFile {
  path: string;
  /** The file was copied into the database (its path is then relative to the database directory). */
  copied: boolean;
}

export interface FunctionInfo {
  /** Null for anonymous functions (the reader must make up a name). */
  name: string | null;
  /** Index into `modules`, or -1. */
  module: number;
  offset: bigint;
  /** Index into `files`, or -1. */
  file: number;
  line: number;
}

/**
 * The context tree in columns, one row per context, in pre-order (a parent's row precedes its
 * children's). Index columns are -1 when absent.
 */
export interface ContextTable {
  count: number;
  ctxId: Uint32Array;
  parent: Int32Array;
  lexicalType: Uint8Array;
  relation: Uint8Array;
  func: Int32Array;
  file: Int32Array;
  /** Source line (0 = unknown). */
  line: Uint32Array;
  module: Int32Array;
  /** Offset in `module` (hasPoint contexts), exact. */
  offset: BigUint64Array;
  propagation: Uint16Array;
  /** The entry points (rows whose lexicalType is EntryPoint): `kind` 0 unknown, 1 main thread, 2 application thread. */
  entryPoints: Map<number, { kind: number; name: string }>;
  /** Row of a context id, or -1 (profile values may name contexts that meta.db does not list). */
  rowOf(ctxId: number): number;
}

export interface MetaDb {
  title: string;
  description: string;
  minorVersion: number;
  /** `idNames[kind]` names the kinds used in profile.db identifier tuples (NODE, RANK, THREAD, …). */
  idNames: string[];
  scopes: PropagationScope[];
  metrics: MetricDescription[];
  modules: string[];
  files: SourceFile[];
  functions: FunctionInfo[];
  contexts: ContextTable;
}

const SECTIONS = [
  'General Properties',
  'Identifier Names',
  'Performance Metrics',
  'Context Tree',
  'Common String Table',
  'Load Modules',
  'Source Files',
  'Functions',
] as const;
const CANONICAL_ENTRY_NAMES = ['unknown entry', 'main thread', 'application thread'];
const CONTEXT_HEADER_SIZE = 0x20;

export function parseMetaDb(path: string, bytes: Uint8Array): MetaDb {
  const db = new DbFile(path, bytes, 'meta', SECTIONS);
  const [general, idNamesSection, metricsSection, contextSection, , modulesSection, filesSection, functionsSection] =
    db.sections as Section[];
  const needs = (s: Section, bytes: number) => {
    if (s.size < bytes)
      throw db.error(`the ${s.name} section is ${s.size} bytes, too small for its ${bytes}-byte header`);
  };
  needs(general!, 0x10);
  const optionalString = (ptr: number, what: string) => (ptr === 0 ? '' : db.cString(ptr, what));
  const title = optionalString(db.u64(general!.offset), 'the database title');
  const description = optionalString(db.u64(general!.offset + 8), 'the database description');

  needs(idNamesSection!, 9);
  const ppNames = db.u64(idNamesSection!.offset);
  const nKinds = db.u8(idNamesSection!.offset + 8);
  db.checkRange(ppNames, nKinds, 8, 'the identifier-name pointers', idNamesSection);
  const idNames: string[] = [];
  for (let k = 0; k < nKinds; k++) idNames.push(db.cString(db.u64(ppNames + 8 * k), `identifier name ${k}`));

  const { scopes, metrics } = parseMetrics(db, metricsSection!);
  const modules = parseArray(db, modulesSection!, 'load module', 0x10, (at, i) =>
    db.cString(db.u64(at + 8), 'the path of load module', i),
  );
  const files = parseArray(db, filesSection!, 'source file', 0x10, (at, i) => ({
    path: db.cString(db.u64(at + 8), 'the path of source file', i),
    copied: (db.u32(at) & 1) === 1,
  }));
  const moduleIndex = arrayIndexer(db, modulesSection!, 'load module');
  const fileIndex = arrayIndexer(db, filesSection!, 'source file');
  const functions = parseArray(db, functionsSection!, 'function', 0x24, (at, i) => {
    const pName = db.u64(at);
    const pModule = db.u64(at + 0x08);
    const pFile = db.u64(at + 0x18);
    return {
      name: pName === 0 ? null : db.cString(pName, 'the name of function', i),
      module: pModule === 0 ? -1 : moduleIndex(pModule, 'function', i),
      offset: db.bigU64(at + 0x10),
      file: pFile === 0 ? -1 : fileIndex(pFile, 'function', i),
      line: db.u32(at + 0x20),
    };
  });
  const functionIndex = arrayIndexer(db, functionsSection!, 'function');
  const contexts = parseContextTree(db, contextSection!, { functionIndex, fileIndex, moduleIndex });
  return {
    title,
    description,
    minorVersion: db.minorVersion,
    idNames,
    scopes,
    metrics,
    modules,
    files,
    functions,
    contexts,
  };
}

function parseMetrics(db: DbFile, section: Section): { scopes: PropagationScope[]; metrics: MetricDescription[] } {
  if (section.size < 0x1b)
    throw db.error(`the ${section.name} section is ${section.size} bytes, too small for its 27-byte header`);
  const at = section.offset;
  const pMetrics = db.u64(at);
  const nMetrics = db.u32(at + 0x08);
  const szMetric = db.u8(at + 0x0c);
  const szScopeInst = db.u8(at + 0x0d);
  const szSummary = db.u8(at + 0x0e);
  const pScopes = db.u64(at + 0x10);
  const nScopes = db.u16(at + 0x18);
  const szScope = db.u8(at + 0x1a);
  const minSize = (what: string, size: number, min: number) => {
    if (size < min)
      throw db.error(`the ${what} structures are ${size} bytes, smaller than the ${min} bytes of format 4.0`);
  };
  minSize('metric description', szMetric, 0x1c);
  minSize('propagated-metric', szScopeInst, 0x0a);
  minSize('summary-statistic', szSummary, 0x14);
  minSize('propagation-scope', szScope, 0x0a);
  db.checkRange(pScopes, nScopes, szScope, 'the propagation scopes', section);
  db.checkRange(pMetrics, nMetrics, szMetric, 'the metric descriptions', section);
  const scopes: PropagationScope[] = [];
  for (let i = 0; i < nScopes; i++) {
    const s = pScopes + i * szScope;
    scopes.push({
      name: db.cString(db.u64(s), `the name of propagation scope ${i}`),
      type: db.u8(s + 8),
      propagationIndex: db.u8(s + 9),
    });
  }
  const scopeAt = (ptr: number, what: string): PropagationScope => {
    const k = (ptr - pScopes) / szScope;
    if (!Number.isInteger(k) || k < 0 || k >= nScopes)
      throw db.error(`${what} points to ${ptr}, which is not one of the ${nScopes} propagation scopes`);
    return scopes[k]!;
  };
  const metrics: MetricDescription[] = [];
  for (let i = 0; i < nMetrics; i++) {
    const m = pMetrics + i * szMetric;
    const name = db.cString(db.u64(m), `the name of metric ${i}`);
    const pInsts = db.u64(m + 0x08);
    const pSummaries = db.u64(m + 0x10);
    const nInsts = db.u16(m + 0x18);
    const nSummaries = db.u16(m + 0x1a);
    db.checkRange(pInsts, nInsts, szScopeInst, `the propagated variants of metric "${name}"`, section);
    db.checkRange(pSummaries, nSummaries, szSummary, `the summary statistics of metric "${name}"`, section);
    const scopesOfMetric: MetricDescription['scopes'] = [];
    for (let k = 0; k < nInsts; k++) {
      const p = pInsts + k * szScopeInst;
      scopesOfMetric.push({
        scope: scopeAt(db.u64(p), `variant ${k} of metric "${name}"`),
        propMetricId: db.u16(p + 8),
      });
    }
    const summaries: MetricDescription['summaries'] = [];
    for (let k = 0; k < nSummaries; k++) {
      const p = pSummaries + k * szSummary;
      summaries.push({
        scope: scopeAt(db.u64(p), `summary ${k} of metric "${name}"`),
        formula: db.cString(db.u64(p + 8), `the formula of summary ${k} of metric "${name}"`),
        combine: db.u8(p + 0x10),
        statMetricId: db.u16(p + 0x12),
      });
    }
    metrics.push({ name, scopes: scopesOfMetric, summaries });
  }
  return { scopes, metrics };
}

/** Reads a `{p, u32 n, u16 sz}` array header and its elements (Load Modules, Source Files, Functions). */
function parseArray<T>(
  db: DbFile,
  section: Section,
  what: string,
  minStride: number,
  read: (at: number, i: number) => T,
): T[] {
  const { base, count, stride } = arrayHeader(db, section, what, minStride);
  const out: T[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = read(base + i * stride, i);
  return out;
}

function arrayHeader(
  db: DbFile,
  section: Section,
  what: string,
  minStride: number,
): { base: number; count: number; stride: number } {
  if (section.size < 0x0e)
    throw db.error(`the ${section.name} section is ${section.size} bytes, too small for its 14-byte header`);
  const base = db.u64(section.offset);
  const count = db.u32(section.offset + 8);
  const stride = db.u16(section.offset + 0x0c);
  if (count > 0 && stride < minStride)
    throw db.error(`the ${what} structures are ${stride} bytes, smaller than the ${minStride} bytes of format 4.0`);
  db.checkRange(base, count, stride, `the ${what} array`, section);
  return { base, count, stride };
}

/** Maps a pointer to an element of a section's array to the element's index, or fails naming `who` and its `index`. */
function arrayIndexer(db: DbFile, section: Section, what: string): (ptr: number, who: string, index: number) => number {
  const { base, count, stride } = arrayHeader(db, section, what, 1);
  return (ptr, who, index) => {
    const i = (ptr - base) / stride;
    // A whole number from 0 (i >>> 0 is i exactly then), without a Number.isInteger call per context.
    if (i >>> 0 !== i || i >= count)
      throw db.error(
        `${named(who, index)} refers to offset ${ptr}, which is not one of the ${count} entries of the ${section.name} section`,
      );
    return i;
  };
}

interface Indexers {
  functionIndex: (ptr: number, who: string, index: number) => number;
  fileIndex: (ptr: number, who: string, index: number) => number;
  moduleIndex: (ptr: number, who: string, index: number) => number;
}

/**
 * Walks the entry points and their nested child arrays without recursion (real trees can be
 * thousands deep). Every record occupies at least 32 bytes of the section, so a tree with more
 * rows than that can hold has overlapping or cyclic child pointers: that bound guarantees the walk
 * ends on any input.
 */
function parseContextTree(db: DbFile, section: Section, ix: Indexers): ContextTable {
  if (section.size < 0x0b)
    throw db.error(`the ${section.name} section is ${section.size} bytes, too small for its 11-byte header`);
  const pEntries = db.u64(section.offset);
  const nEntries = db.u16(section.offset + 8);
  const szEntry = db.u8(section.offset + 0x0a);
  if (nEntries > 0 && szEntry < 0x20)
    throw db.error(`the entry-point structures are ${szEntry} bytes, smaller than the 32 bytes of format 4.0`);
  db.checkRange(pEntries, nEntries, szEntry, 'the entry points', section);

  const { bytes } = db;
  // The records as 32-bit words ({Ctx} is 8-byte aligned, checked per child array).
  const words = db.words;
  const capacity = Math.floor(section.size / CONTEXT_HEADER_SIZE) + nEntries;
  const ctxId = new Uint32Array(capacity);
  const parent = new Int32Array(capacity);
  const lexicalType = new Uint8Array(capacity);
  const relation = new Uint8Array(capacity);
  const func = new Int32Array(capacity);
  const file = new Int32Array(capacity);
  const line = new Uint32Array(capacity);
  const module = new Int32Array(capacity);
  const offset = new BigUint64Array(capacity);
  const propagation = new Uint16Array(capacity);
  const entryPoints = new Map<number, { kind: number; name: string }>();
  const cols = { func, file, line, module, offset };
  let count = 0;

  // Frames of the walk: [cursor, end, parent row] of a child array still being read.
  const stack: number[] = [];
  const pushChildren = (size: number, ptr: number, row: number) => {
    if (size === 0) return;
    // The message only when the range is wrong: a template string per context is a cost in a cold process.
    if (!(ptr >= section.offset && ptr + size <= section.offset + section.size))
      db.checkRange(ptr, 1, size, `the children of context ${ctxId[row]}`, section);
    if (ptr % 8 !== 0)
      throw db.error(
        `the children of context ${ctxId[row]} start at offset ${ptr}, not 8-byte aligned as FORMATS.md requires`,
      );
    stack.push(ptr, ptr + size, row);
  };
  const addRow = (id: number, parentRow: number): number => {
    if (id === 0) throw db.error('a context has id 0, which is reserved for the implicit global context');
    if (count === capacity)
      throw db.error(
        `the ${section.name} section holds more contexts than fit in it: its child pointers overlap or form a cycle`,
      );
    ctxId[count] = id;
    parent[count] = parentRow;
    func[count] = -1;
    file[count] = -1;
    module[count] = -1;
    return count++;
  };

  for (let e = 0; e < nEntries; e++) {
    const at = pEntries + e * szEntry;
    const row = addRow(db.u32(at + 0x10), -1);
    const kind = db.u16(at + 0x14);
    const pName = db.u64(at + 0x18);
    lexicalType[row] = LexicalType.EntryPoint;
    const name = pName === 0 ? '' : db.cString(pName, `the name of entry point ${e}`);
    entryPoints.set(row, { kind, name: name || (CANONICAL_ENTRY_NAMES[kind] ?? `entry point ${kind}`) });
    pushChildren(db.u64(at), db.u64(at + 8), row);
    while (stack.length) {
      const top = stack.length - 3;
      const cursor = stack[top]!;
      const end = stack[top + 1]!;
      if (cursor >= end) {
        stack.length = top;
        continue;
      }
      if (end - cursor < CONTEXT_HEADER_SIZE)
        throw db.error(`a child array ends in the middle of a context record at offset ${cursor}`);
      const nFlex = bytes[cursor + 0x17]!;
      const size = CONTEXT_HEADER_SIZE + 8 * nFlex;
      if (end - cursor < size)
        throw db.error(`the context record at offset ${cursor} (${size} bytes) runs past the end of its child array`);
      stack[top] = cursor + size;
      // The record lies inside its child array, which lies inside the section (checked when it was
      // pushed): its fields are read directly, without a bounds check per field.
      const w = cursor / 4;
      const r = addRow(words[w + 4]!, stack[top + 2]!);
      const flags = bytes[cursor + 0x14]!;
      relation[r] = bytes[cursor + 0x15]!;
      lexicalType[r] = bytes[cursor + 0x16]!;
      propagation[r] = bytes[cursor + 0x18]! | (bytes[cursor + 0x19]! << 8);
      readFlex(db, words, w, flags, nFlex, r, cols, ix);
      pushChildren(u64Word(words, w), u64Word(words, w + 2), r);
    }
  }

  const table = {
    count,
    ctxId: ctxId.slice(0, count),
    parent: parent.slice(0, count),
    lexicalType: lexicalType.slice(0, count),
    relation: relation.slice(0, count),
    func: func.slice(0, count),
    file: file.slice(0, count),
    line: line.slice(0, count),
    module: module.slice(0, count),
    offset: offset.slice(0, count),
    propagation: propagation.slice(0, count),
    entryPoints,
  };
  return { ...table, rowOf: contextIndex(db, table.ctxId) };
}

/**
 * The flexible part of a context record: sub-fields packed in order (pFunction; pFile, u32 line;
 * pModule, u64 offset), a u64 always in the next whole word and two u32s sharing a word. Format 4.0
 * has a single u32 (line), so every sub-field starts a word of its own.
 */
function readFlex(
  db: DbFile,
  words: Uint32Array,
  record: number,
  flags: number,
  nFlex: number,
  row: number,
  cols: { func: Int32Array; file: Int32Array; line: Uint32Array; module: Int32Array; offset: BigUint64Array },
  ix: Indexers,
): void {
  const id = words[record + 4]!;
  const needed = (flags & 1) + (flags & 2) + (flags & 4) / 2;
  if (needed > nFlex)
    throw db.error(`context ${id} has flags ${flags} that need ${needed} flex words, but its record has ${nFlex}`);
  // Inside the record (`needed` ≤ nFlex): read directly, as the record's header is. `at` counts 32-bit words.
  let at = record + CONTEXT_HEADER_SIZE / 4;
  if (flags & 1) {
    cols.func[row] = ix.functionIndex(u64Word(words, at), 'context', id);
    at += 2;
  }
  if (flags & 2) {
    const p = u64Word(words, at);
    if (p !== 0) cols.file[row] = ix.fileIndex(p, 'context', id);
    cols.line[row] = words[at + 2]!;
    at += 4;
  }
  if (flags & 4) {
    const p = u64Word(words, at);
    if (p !== 0) cols.module[row] = ix.moduleIndex(p, 'context', id);
    cols.offset[row] = db.view.getBigUint64(4 * at + 8, true);
  }
}

/** ctxId → row, as a dense array when the ids are dense enough (they normally are), else a map. */
function contextIndex(db: DbFile, ids: Uint32Array): (ctxId: number) => number {
  let max = 0;
  for (let r = 0; r < ids.length; r++) if (ids[r]! > max) max = ids[r]!;
  if (max <= 8 * ids.length + 4096) {
    const dense = new Int32Array(max + 1).fill(-1);
    for (let r = 0; r < ids.length; r++) {
      if (dense[ids[r]!] !== -1) throw duplicate(db, ids[r]!);
      dense[ids[r]!] = r;
    }
    return id => (id <= max ? dense[id]! : -1);
  }
  const map = new Map<number, number>();
  for (let r = 0; r < ids.length; r++) {
    if (map.has(ids[r]!)) throw duplicate(db, ids[r]!);
    map.set(ids[r]!, r);
  }
  return id => map.get(id) ?? -1;
}

function duplicate(db: DbFile, id: number) {
  return db.error(`context id ${id} appears twice in the context tree`);
}
