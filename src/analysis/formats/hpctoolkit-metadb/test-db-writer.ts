import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Test support: writes small HPCToolkit v4 databases (meta.db, profile.db, cct.db and optionally
 * trace.db and metrics/default.yaml) following FORMATS.md, from a description of the context tree and the self
 * cost of each context per profile. Like hpcprof, it propagates the self costs into the "point",
 * "function", "lex_aware" and "execution" scopes, writes a summary profile first, the global
 * context 0, and can leave contexts out of meta.db while keeping their values ("hidden").
 */

export type ContextType = 'function' | 'loop' | 'line' | 'instruction';
export type ScopeName = 'point' | 'function' | 'lex_aware' | 'execution';

export interface FixtureContext {
  id: number;
  type: ContextType;
  /** Default: `call` for functions, `lexical` otherwise. */
  relation?: 'lexical' | 'call' | 'inlined';
  /** Index into `functions`. */
  function?: number;
  /** Index into `files`, with a line. */
  file?: number;
  line?: number;
  /** Index into `modules`, with an offset. */
  module?: number;
  offset?: number;
  /** Self cost per profile (index into `profiles`), one number per metric or one for all metrics. */
  self?: Record<number, number | number[]>;
  /** Written to profile.db and cct.db but not to meta.db (hpcprof does this with some contexts). */
  hidden?: boolean;
  children?: FixtureContext[];
}

export interface FixtureDatabase {
  title?: string;
  idNames?: string[];
  metrics?: { name: string; scopes?: ScopeName[] }[];
  modules?: string[];
  files?: (string | { path: string; copied: boolean })[];
  functions?: { name?: string | null; module?: number; offset?: number; file?: number; line?: number }[];
  entries: { id: number; kind?: number; name?: string; children?: FixtureContext[] }[];
  /** Identifier tuples of the application profiles as [kind name, logical id] pairs. */
  profiles: [string, number][][];
  /** Text of metrics/default.yaml. */
  taxonomy?: string;
  /** trace.db lines: an application profile (index into `profiles`) and its `[timestamp ns, ctxId]` elements, written as given. */
  traces?: FixtureTrace[];
}

export interface FixtureTrace {
  profile: number;
  samples: [timestamp: number | bigint, ctxId: number][];
}

export const HPCPROF_ID_NAMES = ['SUMMARY', 'NODE', 'RANK', 'THREAD', 'GPUDEVICE', 'GPUCONTEXT', 'GPUSTREAM', 'CORE'];
const ALL_SCOPES: ScopeName[] = ['point', 'function', 'lex_aware', 'execution'];
const SCOPE_TYPE: Record<ScopeName, [type: number, propagationIndex: number]> = {
  point: [1, 255],
  function: [3, 0],
  lex_aware: [0, 255],
  execution: [2, 255],
};
const RELATION = { lexical: 0, call: 1, inlined: 2 } as const;
const LEXICAL_TYPE: Record<ContextType, number> = { function: 0, loop: 1, line: 2, instruction: 3 };

/** A little-endian byte buffer that grows, with absolute patching for pointers written later. */
class ByteWriter {
  private buf = Buffer.alloc(1024);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next);
    this.buf = next;
  }
  align(n: number): number {
    while (this.pos % n) this.u8(0);
    return this.pos;
  }
  u8(v: number): number {
    this.ensure(1);
    this.buf.writeUInt8(v, this.pos);
    return this.pos++;
  }
  u16(v: number): number {
    this.ensure(2);
    this.buf.writeUInt16LE(v, this.pos);
    this.pos += 2;
    return this.pos - 2;
  }
  u32(v: number): number {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
    return this.pos - 4;
  }
  u64(v: number | bigint): number {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.pos);
    this.pos += 8;
    return this.pos - 8;
  }
  f64(v: number): number {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
    return this.pos - 8;
  }
  bytes(b: Uint8Array): number {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this.pos - b.length;
  }
  cString(s: string): number {
    const at = this.bytes(Buffer.from(s, 'utf8'));
    this.u8(0);
    return at;
  }
  zeros(n: number): number {
    const at = this.pos;
    for (let i = 0; i < n; i++) this.u8(0);
    return at;
  }
  patchU64(at: number, v: number): void {
    this.buf.writeBigUInt64LE(BigInt(v), at);
  }
  patchU32(at: number, v: number): void {
    this.buf.writeUInt32LE(v, at);
  }
  patchU16(at: number, v: number): void {
    this.buf.writeUInt16LE(v, at);
  }
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

function header(w: ByteWriter, tag: string, sections: number): (i: number, start: number) => void {
  w.bytes(Buffer.from('HPCTOOLKIT' + tag, 'ascii'));
  w.u8(4);
  w.u8(0);
  w.zeros(16 * sections);
  return (i, start) => {
    w.patchU64(0x10 + 16 * i, w.pos - start);
    w.patchU64(0x18 + 16 * i, start);
  };
}

/** The propagated values of every context: values[profile][ctxId][metricId]. */
function propagate(
  db: FixtureDatabase,
  metrics: { scopes: ScopeName[] }[],
  ids: number[][],
): Map<number, Map<number, number>>[] {
  const out: Map<number, Map<number, number>>[] = db.profiles.map(() => new Map());
  db.profiles.forEach((_, p) => {
    const values = out[p]!;
    const put = (ctx: number, metric: number, v: number) => {
      if (v === 0) return;
      let m = values.get(ctx);
      if (!m) values.set(ctx, (m = new Map()));
      m.set(metric, (m.get(metric) ?? 0) + v);
    };
    const selfOf = (c: FixtureContext, k: number) => {
      const s = c.self?.[p];
      return s === undefined ? 0 : typeof s === 'number' ? s : (s[k] ?? 0);
    };
    // Returns [execution, function] per metric for the subtree of c.
    const visit = (c: FixtureContext): [number[], number[]] => {
      const exec = metrics.map((_, k) => selfOf(c, k));
      const func = exec.slice();
      for (const child of c.children ?? []) {
        const [e, f] = visit(child);
        const lexical = (child.relation ?? (child.type === 'function' ? 'call' : 'lexical')) === 'lexical';
        e.forEach((v, k) => {
          exec[k]! += v;
          if (lexical) func[k]! += f[k]!;
        });
      }
      metrics.forEach((m, k) => {
        m.scopes.forEach((s, j) =>
          put(c.id, ids[k]![j]!, s === 'point' ? selfOf(c, k) : s === 'execution' ? exec[k]! : func[k]!),
        );
      });
      return [exec, func];
    };
    const global = metrics.map(() => 0);
    for (const e of db.entries) {
      const exec = metrics.map(() => 0);
      for (const c of e.children ?? [])
        visit(c)[0].forEach((v, k) => {
          exec[k]! += v;
        });
      metrics.forEach((m, k) => {
        global[k]! += exec[k]!;
        if (m.scopes.includes('execution')) put(e.id, ids[k]![m.scopes.indexOf('execution')]!, exec[k]!);
      });
    }
    metrics.forEach((m, k) => {
      if (m.scopes.includes('execution')) put(0, ids[k]![m.scopes.indexOf('execution')]!, global[k]!);
    });
  });
  return out;
}

export interface EncodedDatabase {
  meta: Buffer;
  profile: Buffer;
  cct: Buffer;
  trace?: Buffer;
}

export function encodeDatabase(db: FixtureDatabase): EncodedDatabase {
  const metrics = (db.metrics ?? [{ name: 'CPUTIME (sec)' }]).map(m => ({
    name: m.name,
    scopes: m.scopes ?? ALL_SCOPES,
  }));
  let nextId = 0;
  const ids = metrics.map(m => m.scopes.map(() => nextId++));
  const values = propagate(db, metrics, ids);
  return {
    meta: encodeMeta(db, metrics, ids),
    ...encodeProfiles(db, values),
    ...(db.traces ? { trace: encodeTrace(db.traces) } : {}),
  };
}

function encodeMeta(db: FixtureDatabase, metrics: { name: string; scopes: ScopeName[] }[], ids: number[][]): Buffer {
  const w = new ByteWriter();
  const section = header(w, 'meta', 8);

  let start = w.align(8);
  const pTitle = w.u64(0),
    pDesc = w.u64(0);
  w.patchU64(pTitle, w.cString(db.title ?? 'fixture'));
  w.patchU64(pDesc, w.cString('A database written by the HPC Lens test writer'));
  section(0, start);

  start = w.align(8);
  const idNames = db.idNames ?? HPCPROF_ID_NAMES;
  const ppNames = w.u64(0);
  w.u8(idNames.length);
  w.patchU64(ppNames, w.align(8));
  const namePtrs = idNames.map(() => w.u64(0));
  idNames.forEach((n, i) => w.patchU64(namePtrs[i]!, w.cString(n)));
  section(1, start);

  start = w.align(8);
  const usedScopes = ALL_SCOPES.filter(s => metrics.some(m => m.scopes.includes(s)));
  const pMetrics = w.u64(0);
  w.u32(metrics.length);
  w.u8(32);
  w.u8(16);
  w.u8(24);
  w.u8(0);
  const pScopes = w.u64(0);
  w.u16(usedScopes.length);
  w.u8(16);
  w.patchU64(pScopes, w.align(8));
  const scopeAt = new Map<ScopeName, number>();
  const scopeNamePtrs = usedScopes.map(s => {
    scopeAt.set(s, w.pos);
    const p = w.u64(0);
    w.u8(SCOPE_TYPE[s][0]);
    w.u8(SCOPE_TYPE[s][1]);
    w.zeros(6);
    return p;
  });
  w.patchU64(pMetrics, w.pos);
  const records = metrics.map(m => {
    const at = w.u64(0);
    w.u64(0);
    w.u64(0);
    w.u16(m.scopes.length);
    w.u16(m.scopes.length);
    w.u32(0);
    return at;
  });
  metrics.forEach((m, k) => {
    w.patchU64(records[k]! + 8, w.align(8));
    m.scopes.forEach((s, j) => {
      w.u64(scopeAt.get(s)!);
      w.u16(ids[k]![j]!);
      w.zeros(6);
    });
    w.patchU64(records[k]! + 16, w.pos);
    const formulaPtrs = m.scopes.map((s, j) => {
      w.u64(scopeAt.get(s)!);
      const f = w.u64(0);
      w.u8(0);
      w.u8(0);
      w.u16(ids[k]![j]!);
      w.zeros(4);
      return f;
    });
    formulaPtrs.forEach(f => w.patchU64(f, w.cString('$$')));
    w.patchU64(records[k]!, w.cString(m.name));
  });
  scopeNamePtrs.forEach((p, i) => w.patchU64(p, w.cString(usedScopes[i]!)));
  section(2, start);

  // Common string table.
  start = w.align(8);
  const strings = new Map<string, number>();
  const str = (s: string) => {
    let at = strings.get(s);
    if (at === undefined) strings.set(s, (at = w.cString(s)));
    return at;
  };
  const files = (db.files ?? []).map(f => (typeof f === 'string' ? { path: f, copied: false } : f));
  for (const m of db.modules ?? []) str(m);
  for (const f of files) str(f.path);
  for (const f of db.functions ?? []) if (f.name) str(f.name);
  for (const e of db.entries) str(e.name ?? ['unknown entry', 'main thread', 'application thread'][e.kind ?? 1]!);
  section(4, start);

  start = w.align(8);
  const moduleBase = w.u64(0);
  w.u32((db.modules ?? []).length);
  w.u16(16);
  w.align(8);
  w.patchU64(moduleBase, w.pos);
  const moduleAt = (db.modules ?? []).map(m => {
    const at = w.u32(0);
    w.u32(0);
    w.u64(str(m));
    return at;
  });
  section(5, start);

  start = w.align(8);
  const fileBase = w.u64(0);
  w.u32(files.length);
  w.u16(16);
  w.align(8);
  w.patchU64(fileBase, w.pos);
  const fileAt = files.map(f => {
    const at = w.u32(f.copied ? 1 : 0);
    w.u32(0);
    w.u64(str(f.path));
    return at;
  });
  section(6, start);

  start = w.align(8);
  const functionBase = w.u64(0);
  w.u32((db.functions ?? []).length);
  w.u16(40);
  w.align(8);
  w.patchU64(functionBase, w.pos);
  const functionAt = (db.functions ?? []).map(f => {
    const at = w.u64(f.name ? str(f.name) : 0);
    w.u64(f.module !== undefined ? moduleAt[f.module]! : 0);
    w.u64(f.offset ?? 0);
    w.u64(f.file !== undefined ? fileAt[f.file]! : 0);
    w.u32(f.line ?? 0);
    w.u32(0);
    return at;
  });
  section(7, start);

  start = w.align(8);
  const pEntries = w.u64(0);
  w.u16(db.entries.length);
  w.u8(32);
  w.align(8);
  w.patchU64(pEntries, w.pos);
  const queue: [recordAt: number, children: FixtureContext[]][] = [];
  for (const e of db.entries) {
    const at = w.u64(0);
    w.u64(0);
    w.u32(e.id);
    w.u16(e.kind ?? 1);
    w.u16(0);
    w.u64(str(e.name ?? ['unknown entry', 'main thread', 'application thread'][e.kind ?? 1]!));
    queue.push([at, e.children ?? []]);
  }
  while (queue.length) {
    const [recordAt, all] = queue.shift()!;
    const children = all.filter(c => !c.hidden);
    if (children.length === 0) continue;
    const arrayStart = w.align(8);
    for (const c of children) {
      const at = w.u64(0);
      w.u64(0);
      w.u32(c.id);
      const flags =
        (c.function !== undefined ? 1 : 0) | (c.file !== undefined ? 2 : 0) | (c.module !== undefined ? 4 : 0);
      const relation = RELATION[c.relation ?? (c.type === 'function' ? 'call' : 'lexical')];
      const words: [kind: 'u64' | 'u32', value: number][] = [];
      if (flags & 1) words.push(['u64', functionAt[c.function!]!]);
      if (flags & 2) words.push(['u64', fileAt[c.file!]!], ['u32', c.line ?? 0]);
      if (flags & 4) words.push(['u64', moduleAt[c.module!]!], ['u64', c.offset ?? 0]);
      const packed = packFlex(words);
      w.u8(flags);
      w.u8(relation);
      w.u8(LEXICAL_TYPE[c.type]);
      w.u8(packed.length / 8);
      w.u16(relation === 0 ? 1 : 0);
      w.zeros(6);
      w.bytes(packed);
      queue.push([at, c.children ?? []]);
    }
    w.patchU64(recordAt, w.pos - arrayStart);
    w.patchU64(recordAt + 8, arrayStart);
  }
  section(3, start);

  w.bytes(Buffer.from('_meta.db', 'ascii'));
  return w.finish();
}

/** Packs flex sub-fields: a u64 takes the next whole word, two u32s share one word. */
function packFlex(fields: [kind: 'u64' | 'u32', value: number][]): Buffer {
  const words: Buffer[] = [];
  let half = -1;
  for (const [kind, value] of fields) {
    if (kind === 'u64') {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(BigInt(value));
      words.push(b);
      continue;
    }
    if (half >= 0) {
      words[half]!.writeUInt32LE(value, 4);
      half = -1;
      continue;
    }
    const b = Buffer.alloc(8);
    b.writeUInt32LE(value);
    words.push(b);
    half = words.length - 1;
  }
  return Buffer.concat(words);
}

function encodeProfiles(
  db: FixtureDatabase,
  values: Map<number, Map<number, number>>[],
): { profile: Buffer; cct: Buffer } {
  // Profile 0 is the summary: per metric id, the sum over application profiles.
  const summary = new Map<number, Map<number, number>>();
  for (const p of values)
    for (const [ctx, ms] of p) {
      let s = summary.get(ctx);
      if (!s) summary.set(ctx, (s = new Map()));
      for (const [m, v] of ms) s.set(m, (s.get(m) ?? 0) + v);
    }
  const all = [summary, ...values];
  const idNames = db.idNames ?? HPCPROF_ID_NAMES;

  const w = new ByteWriter();
  const section = header(w, 'prof', 2);
  let start = w.align(8);
  const pProfiles = w.u64(0);
  w.u32(all.length);
  w.u8(48);
  w.align(8);
  w.patchU64(pProfiles, w.pos);
  const infoAt = all.map(() => {
    const at = w.pos;
    w.zeros(48);
    return at;
  });
  section(0, start);
  start = w.align(8);
  db.profiles.forEach((tuple, i) => {
    w.patchU64(infoAt[i + 1]! + 0x20, w.align(8));
    w.u16(tuple.length);
    w.zeros(6);
    for (const [kind, id] of tuple) {
      const k = idNames.indexOf(kind);
      if (k < 0) throw new Error(`unknown identifier kind ${kind}`);
      const physical = kind === 'NODE' || kind === 'CORE';
      w.u8(k);
      w.u8(0);
      w.u16(physical ? 1 : 0);
      w.u32(id);
      w.u64(physical ? 1000 + id : id);
    }
  });
  section(1, start);
  all.forEach((p, i) => {
    const ctxs = [...p.keys()].sort((a, b) => a - b);
    const pValues = w.align(8);
    const starts: number[] = [];
    let n = 0;
    for (const c of ctxs) {
      starts.push(n);
      for (const [m, v] of [...p.get(c)!].sort((a, b) => a[0] - b[0])) {
        w.u16(m);
        w.f64(v);
        n++;
      }
    }
    const pIdx = w.align(8);
    ctxs.forEach((c, j) => {
      w.u32(c);
      w.u64(starts[j]!);
    });
    w.patchU64(infoAt[i]!, n);
    w.patchU64(infoAt[i]! + 0x08, pValues);
    w.patchU32(infoAt[i]! + 0x10, ctxs.length);
    w.patchU64(infoAt[i]! + 0x18, pIdx);
    w.patchU32(infoAt[i]! + 0x28, i === 0 ? 1 : 0);
  });
  w.bytes(Buffer.from('_prof.db', 'ascii'));
  const profile = w.finish();

  const c = new ByteWriter();
  const cctSection = header(c, 'ctxt', 1);
  start = c.align(8);
  let maxCtx = 0;
  for (const p of values) for (const ctx of p.keys()) maxCtx = Math.max(maxCtx, ctx);
  const pCtxs = c.u64(0);
  c.u32(maxCtx + 1);
  c.u8(32);
  c.align(8);
  c.patchU64(pCtxs, c.pos);
  const ctxAt: number[] = [];
  for (let k = 0; k <= maxCtx; k++) {
    ctxAt.push(c.pos);
    c.zeros(32);
  }
  cctSection(0, start);
  for (let ctx = 0; ctx <= maxCtx; ctx++) {
    const byMetric = new Map<number, [number, number][]>();
    values.forEach((p, i) => {
      for (const [m, v] of p.get(ctx) ?? []) byMetric.set(m, [...(byMetric.get(m) ?? []), [i + 1, v]]);
    });
    if (byMetric.size === 0) continue;
    const metrics = [...byMetric.keys()].sort((a, b) => a - b);
    const pValues = c.align(8);
    const starts: number[] = [];
    let n = 0;
    for (const m of metrics) {
      starts.push(n);
      for (const [prof, v] of byMetric.get(m)!) {
        c.u32(prof);
        c.f64(v);
        n++;
      }
    }
    const pIdx = c.align(8);
    metrics.forEach((m, j) => {
      c.u16(m);
      c.u64(starts[j]!);
    });
    c.patchU64(ctxAt[ctx]!, n);
    c.patchU64(ctxAt[ctx]! + 8, pValues);
    c.patchU16(ctxAt[ctx]! + 0x10, metrics.length);
    c.patchU64(ctxAt[ctx]! + 0x18, pIdx);
  }
  c.bytes(Buffer.from('__ctx.db', 'ascii'));
  return { profile, cct: c.finish() };
}

/** trace.db: the headers section (with the time range, INT64_MAX / INT64_MIN when empty as hpcprof writes it), then the lines. */
function encodeTrace(traces: FixtureTrace[]): Buffer {
  const w = new ByteWriter();
  const section = header(w, 'trce', 1);
  const start = w.align(8);
  const pTraces = w.u64(0);
  w.u32(traces.length);
  w.u8(24);
  w.align(8);
  const all = traces.flatMap(t => t.samples.map(([ts]) => BigInt(ts)));
  w.u64(all.length ? all.reduce((a, b) => (b < a ? b : a)) : 2n ** 63n - 1n);
  w.u64(all.length ? all.reduce((a, b) => (b > a ? b : a)) : 2n ** 63n);
  w.patchU64(pTraces, w.pos);
  // profIndex counts profile.db profiles, where the summary is 0.
  const headerAt = traces.map(t => {
    const at = w.u32(t.profile + 1);
    w.u32(0);
    w.u64(0);
    w.u64(0);
    return at;
  });
  section(0, start);
  traces.forEach((t, i) => {
    const pStart = w.align(8);
    for (const [ts, ctx] of t.samples) {
      w.u64(ts);
      w.u32(ctx);
    }
    w.patchU64(headerAt[i]! + 8, pStart);
    w.patchU64(headerAt[i]! + 16, w.pos);
  });
  w.bytes(Buffer.from('trace.db', 'ascii'));
  return w.finish();
}

/** Writes the database into `dir` (created); `gzip` compresses every file (`meta.db.gz`, …). */
export function writeDatabase(dir: string, db: FixtureDatabase, options: { gzip?: boolean } = {}): EncodedDatabase {
  const encoded = encodeDatabase(db);
  mkdirSync(dir, { recursive: true });
  const put = (name: string, data: Buffer) =>
    writeFileSync(join(dir, options.gzip ? `${name}.gz` : name), options.gzip ? gzipSync(data) : data);
  put('meta.db', encoded.meta);
  put('profile.db', encoded.profile);
  put('cct.db', encoded.cct);
  if (encoded.trace) put('trace.db', encoded.trace);
  if (db.taxonomy !== undefined) {
    mkdirSync(join(dir, 'metrics'), { recursive: true });
    writeFileSync(join(dir, 'metrics', 'default.yaml'), db.taxonomy);
  }
  return encoded;
}
