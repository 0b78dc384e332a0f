import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Writes small HPCToolkit classic databases for tests, following hpcprof's rules: node ids in
 * pre-order from 2 (1 is the whole-program root, which has a metric-db row but no element);
 * inclusive values are subtree totals; a statement's exclusive value is added to its parent and to
 * its enclosing procedure frame (hpcprof's `aggregateMetricsExcl`); call sites have none.
 */

export interface FixtureElement {
  tag: 'PF' | 'Pr' | 'L' | 'S' | 'C';
  /** PF / Pr: the procedure name ('' for a nameless Pr). */
  proc?: string;
  /** PF / Pr / L: the source file (omitted: none). */
  file?: string;
  line?: number;
  module?: string;
  /** S: cost per context, in the order of `FixtureDatabase.contexts`. */
  cost?: number[];
  children?: FixtureElement[];
}

export interface FixtureDatabase {
  program: string;
  /** One metric-db file per [rank, thread]. */
  contexts: [rank: number, thread: number][];
  roots: FixtureElement[];
  /** Write whole-program values inline as `<M>` instead of metric-db files (printed with 6 digits, as hpcprof does). */
  inline?: boolean;
  /** Measure name (default `CPUTIME (usec)`). */
  metric?: string;
  /** Only the exclusive half of the metric. */
  exclusiveOnly?: boolean;
  /** gzip every file's content (names unchanged). */
  gzip?: boolean;
  /** experiment.xml version attribute (default 2.1). */
  version?: string;
  /**
   * `.hpctrace` files: per [rank, thread] of `contexts`, samples of (ticks after the epoch origin below,
   * the `<S>`/`<C>` element sampled, or null for "not running"); statements and call sites get `it` ids.
   */
  traces?: { context: number; samples: [ticks: number, element: FixtureElement | null][] }[];
  /** The TraceDB's ticks per second (default 1e9, i.e. ns). */
  ticksPerSecond?: number;
}

/** The absolute time of tick 0 of the fixture traces (ns since the epoch: beyond 2^53, as in real files). */
export const TRACE_EPOCH = 1_732_000_000_000_000_000n;

interface Numbered {
  el: FixtureElement;
  id: number;
  parent: Numbered | null;
  frame: Numbered | null;
  incl: Float64Array;
  excl: Float64Array;
  children: Numbered[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** C's `%g`: 6 significant digits, trailing zeros dropped, two-digit exponent. */
export function formatG(v: number): string {
  if (v === 0) return '0';
  const p = v.toPrecision(6);
  if (!p.includes('e')) return p.includes('.') ? p.replace(/\.?0+$/, '') : p;
  const [mant, exp] = p.split('e') as [string, string];
  const m = mant.includes('.') ? mant.replace(/\.?0+$/, '') : mant;
  const e = Number(exp);
  return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

function number(db: FixtureDatabase): { nodes: Numbered[]; maxId: number } {
  const C = db.contexts.length;
  const nodes: Numbered[] = [];
  let next = 2;
  const visit = (el: FixtureElement, parent: Numbered | null): Numbered => {
    const frame = parent && (parent.el.tag === 'PF' || parent.el.tag === 'Pr') ? parent : (parent?.frame ?? null);
    const n: Numbered = {
      el,
      id: next++,
      parent,
      frame,
      incl: new Float64Array(C),
      excl: new Float64Array(C),
      children: [],
    };
    nodes.push(n);
    for (const c of el.children ?? []) n.children.push(visit(c, n));
    return n;
  };
  const roots = db.roots.map(r => visit(r, null));
  const total = (n: Numbered): Float64Array => {
    if (n.el.tag === 'S') n.incl.set(n.el.cost ?? []);
    for (const c of n.children) {
      const t = total(c);
      for (let k = 0; k < C; k++) n.incl[k]! += t[k]!;
    }
    return n.incl;
  };
  roots.forEach(total);
  for (const n of nodes) {
    if (n.el.tag !== 'S') continue;
    for (let k = 0; k < C; k++) {
      const v = n.el.cost?.[k] ?? 0;
      n.excl[k]! += v;
      if (n.parent) n.parent.excl[k]! += v;
      const f = n.parent?.el.tag === 'PF' || n.parent?.el.tag === 'Pr' ? n.parent : (n.parent?.frame ?? null);
      if (f && f !== n.parent) f.excl[k]! += v;
    }
  }
  return { nodes, maxId: next - 1 };
}

export function experimentXml(db: FixtureDatabase): string {
  const { nodes } = number(db);
  const tables = {
    proc: new Map<string, number>(),
    file: new Map<string, number>(),
    module: new Map<string, number>(),
  };
  let tableId = 100;
  const idIn = (t: Map<string, number>, s: string) => {
    let i = t.get(s);
    if (i === undefined) t.set(s, (i = tableId++));
    return i;
  };
  for (const n of nodes) {
    if (n.el.proc !== undefined) idIn(tables.proc, n.el.proc);
    if (n.el.file !== undefined) idIn(tables.file, n.el.file);
    if (n.el.module !== undefined) idIn(tables.module, n.el.module);
  }
  const measure = db.metric ?? 'CPUTIME (usec)';
  const out: string[] = [];
  out.push('<?xml version="1.0"?>');
  out.push(
    '<!DOCTYPE HPCToolkitExperiment [\n<!ELEMENT HPCToolkitExperiment (Header, (SecCallPathProfile|SecFlatProfile)*)>\n<!ATTLIST HPCToolkitExperiment version CDATA #REQUIRED>\n]>',
  );
  out.push(`<HPCToolkitExperiment version="${db.version ?? '2.1'}">`);
  out.push(
    `<Header n="${esc(db.program)}">\n  <Info><NV n="launch" v="srun -n ${db.contexts.length}"/></Info>\n</Header>`,
  );
  out.push(`<SecCallPathProfile i="0" n="${esc(db.program)}">\n<SecHeader>\n  <MetricTable>`);
  if (!db.exclusiveOnly)
    out.push(
      `    <Metric i="2" n="${esc(measure)}:Sum (I)" v="derived-incr" t="inclusive" partner="3" show="1" show-percent="1"><Info><NV n="units" v="events"/></Info></Metric>`,
    );
  out.push(
    `    <Metric i="3" n="${esc(measure)}:Sum (E)" v="derived-incr" t="exclusive"${db.exclusiveOnly ? '' : ' partner="2"'} show="1" show-percent="1"/>`,
  );
  out.push('  </MetricTable>');
  if (db.traces)
    out.push(
      `  <TraceDBTable><TraceDB i="0" u="${db.ticksPerSecond ?? 1e9}" db-glob="*.hpctrace" db-min-time="${TRACE_EPOCH}" db-max-time="${TRACE_EPOCH}" db-header-sz="32"/></TraceDBTable>`,
    );
  if (!db.inline) {
    const cols = db.exclusiveOnly ? 1 : 2;
    out.push('  <MetricDBTable>');
    if (!db.exclusiveOnly)
      out.push(
        `    <MetricDB i="0" n="${esc(measure)} (I)" t="inclusive" partner="1" db-glob="*.metric-db" db-id="0" db-num-metrics="${cols}" db-header-sz="24"/>`,
      );
    out.push(
      `    <MetricDB i="1" n="${esc(measure)} (E)" t="exclusive"${db.exclusiveOnly ? '' : ' partner="0"'} db-glob="*.metric-db" db-id="${cols - 1}" db-num-metrics="${cols}" db-header-sz="24"/>`,
    );
    out.push('  </MetricDBTable>');
  }
  const table = (tag: string, inner: string, t: Map<string, number>) => {
    out.push(`  <${tag}Table>`);
    for (const [name, i] of t) out.push(`    <${inner} i="${i}" n="${esc(name)}"/>`);
    out.push(`  </${tag}Table>`);
  };
  table('LoadModule', 'LoadModule', tables.module);
  table('File', 'File', tables.file);
  table('Procedure', 'Procedure', tables.proc);
  out.push('</SecHeader>\n<SecCallPathProfileData>');
  const values = (n: Numbered): string => {
    if (!db.inline) return '';
    const sum = (a: Float64Array) => a.reduce((s, x) => s + x, 0);
    const i = sum(n.incl),
      e = sum(n.excl);
    return (
      (i !== 0 && !db.exclusiveOnly ? `<M n="2" v="${formatG(i)}"/>` : '') +
      (e !== 0 ? `<M n="3" v="${formatG(e)}"/>` : '')
    );
  };
  const write = (n: Numbered) => {
    const el = n.el;
    const attrs = [`i="${n.id}"`, `s="${n.id + 1000}"`];
    if (el.line !== undefined) attrs.push(`l="${el.line}"`);
    if (el.module !== undefined) attrs.push(`lm="${tables.module.get(el.module)}"`);
    if (el.file !== undefined) attrs.push(`f="${tables.file.get(el.file)}"`);
    if (el.proc !== undefined) attrs.push(`n="${tables.proc.get(el.proc)}"`);
    if (db.traces && (el.tag === 'S' || el.tag === 'C')) attrs.push(`it="${n.id}"`);
    const inner = values(n);
    if (!inner && n.children.length === 0) {
      out.push(`<${el.tag} ${attrs.join(' ')}/>`);
      return;
    }
    out.push(`<${el.tag} ${attrs.join(' ')}>${inner}`);
    n.children.forEach(write);
    out.push(`</${el.tag}>`);
  };
  nodes.filter(n => n.parent === null).forEach(write);
  out.push('</SecCallPathProfileData>\n</SecCallPathProfile>\n</HPCToolkitExperiment>\n');
  return out.join('\n');
}

/** The bytes of one metric-db file: `maxId` rows (row 0 = the whole program) × the metric columns. */
export function metricDbBytes(db: FixtureDatabase, context: number): Buffer {
  const { nodes, maxId } = number(db);
  const cols = db.exclusiveOnly ? 1 : 2;
  const buf = Buffer.alloc(32 + maxId * cols * 8);
  buf.write('HPCPROF-metricdb__00.10b', 0, 'latin1');
  buf.writeUInt32BE(maxId, 24);
  buf.writeUInt32BE(cols, 28);
  const put = (id: number, col: number, v: number) => buf.writeDoubleBE(v, 32 + ((id - 1) * cols + col) * 8);
  let total = 0;
  for (const n of nodes) {
    if (n.parent === null) total += n.incl[context]!;
    if (cols === 2) put(n.id, 0, n.incl[context]!);
    put(n.id, cols - 1, n.excl[context]!);
  }
  if (cols === 2) put(1, 0, total);
  return buf;
}

export function metricDbName(db: FixtureDatabase, context: number): string {
  const [rank, thread] = db.contexts[context]!;
  return `1.${db.program}-${String(rank).padStart(6, '0')}-${String(thread).padStart(3, '0')}-a8c00471-${152577 + rank}-0.metric-db`;
}

/** Writes the database into `dir` (created) and returns `dir`. */
export function writeFixtureDatabase(dir: string, db: FixtureDatabase): string {
  mkdirSync(dir, { recursive: true });
  const put = (name: string, data: string | Buffer) => writeFileSync(join(dir, name), db.gzip ? gzipSync(data) : data);
  put('experiment.xml', experimentXml(db));
  if (!db.inline) db.contexts.forEach((_, k) => put(metricDbName(db, k), metricDbBytes(db, k)));
  for (const t of db.traces ?? []) writeFileSync(join(dir, hpcTraceName(db, t.context)), hpcTraceBytes(db, t));
  return dir;
}

/** The bytes of one `.hpctrace` file (big-endian, 12-byte records, as hpcrun writes them). */
export function hpcTraceBytes(db: FixtureDatabase, trace: NonNullable<FixtureDatabase['traces']>[number]): Buffer {
  const { nodes } = number(db);
  const idOf = new Map(nodes.map(n => [n.el, n.id]));
  const buf = Buffer.alloc(32 + trace.samples.length * 12);
  buf.write('HPCRUN-trace______01.01b', 0, 'latin1');
  trace.samples.forEach(([ticks, el], k) => {
    buf.writeBigUInt64BE(TRACE_EPOCH + BigInt(ticks), 32 + k * 12);
    buf.writeUInt32BE(el ? idOf.get(el)! : 0, 32 + k * 12 + 8);
  });
  return buf;
}

export function hpcTraceName(db: FixtureDatabase, context: number): string {
  return metricDbName(db, context)
    .replace(/^\d+\./, '')
    .replace(/\.metric-db$/, '.hpctrace');
}
