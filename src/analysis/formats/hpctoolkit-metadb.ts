import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isTimeUnit, normaliseUnit, type MetricDescriptor } from '../model/metric';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { parseCctDb, type CctDb } from './hpctoolkit-metadb/cct-db';
import { gatherProfileRecords, UNKNOWN_METRIC, UNUSED_METRIC } from './hpctoolkit-metadb/cct-records';
import { HOST_LITTLE_ENDIAN } from './hpctoolkit-metadb/db-file';
import { addContextTree } from './hpctoolkit-metadb/context-tree';
import { addExecutionContexts } from './hpctoolkit-metadb/execution-contexts';
import { ScopeType, parseMetaDb, type MetaDb, type MetricDescription } from './hpctoolkit-metadb/meta-db';
import { parseMetricTaxonomy, type TaxonomyEntry } from './hpctoolkit-metadb/metric-taxonomy';
import {
  parseProfileDb,
  readProfileContexts,
  VALUE_OFFSET,
  VALUE_RECORD_BYTES,
  type ProfileDb,
  type ProfileInfo,
} from './hpctoolkit-metadb/profile-db';
import { parseTraceDb, type TraceDb } from './hpctoolkit-metadb/trace-db';
import { addTraceTimeline } from './hpctoolkit-metadb/trace-timeline';
import { readBytes } from './io/file-input';
import { fromFileSystemError } from './io/fs-errors';
import { isAbortError, ProfileReadError, throwIfAborted, type ProfileReader, type ReadOptions } from './reader';
import { hpctoolkitMetaDbSniffer } from './sniffers/hpctoolkit-metadb';

/**
 * HPCToolkit's sparse database, format v4 (hpcprof ≥ 2022): a directory with `meta.db` (context
 * tree, metric descriptions), `profile.db` (values per application thread), `cct.db` (the same
 * values per context), `trace.db` and `metrics/default.yaml`. The binary layout is specified in the
 * `FORMATS.md` every database carries; helpers per file live in `hpctoolkit-metadb/`.
 *
 * Values come from cct.db when there is one: it holds them metric by metric, so the scopes the model
 * does not use are never read (hpctoolkit-metadb/cct-records.ts gathers the rest into profile.db's
 * order); else from profile.db, which also holds the identifier tuples that make the execution
 * contexts (the summary profile is not one). Metrics: hpcprof stores each metric in several
 * propagation scopes. Our inclusive value is the "execution" scope (everything below the context);
 * our exclusive value is the true self cost, inclusive minus the children's inclusive, so that
 * exclusive values of a subtree add up to its inclusive value. That self cost includes values of
 * contexts hpcprof records but does not list in meta.db (it counts them into their parents' scopes
 * only). hpcviewer's and Hatchet's "exclusive" is the "function" scope instead: a function's or
 * loop's own cost plus that of its lines and loops (oracle README caveat 8); the conformance test
 * derives it from our model. `CPUTIME (sec)` is named `time`, as Hatchet names it.
 *
 * When the database has a trace.db with samples, the profile also carries the timeline (one track
 * per traced thread, samples of context nodes and the slices of their call paths; see
 * hpctoolkit-metadb/trace-timeline.ts). ping-pong-mpi-with-trace: 44 samples → 536 events, read in
 * 0.9 ms (0.3 ms without trace.db); a generated 1M-sample trace.db (12 MB) in ~0.6 s.
 *
 * Read times (reader.read, median of 51 runs in one process after a warm-up, tsx, 2-core VM under
 * load; Hatchet 1.4.0 in parentheses, from shared/oracle/README.md): cpi-4ranks (205 nodes × 16
 * threads) 1.1 ms (47 ms); ping-pong-mpi-with-trace (117 × 2) 0.7 ms (30 ms); lammps-openmp
 * (1908 × 24) 3.9 ms (Hatchet fails; 285 ms with a rewritten default.yaml). `npm run bench` lists
 * them in its per-reader table.
 */

/** Self costs smaller than this fraction of the inclusive value are rounding residue of the subtraction. */
const RESIDUE = 1e-10;
/** 16-bit words per profile.db value record. */
const RECORD_WORDS = VALUE_RECORD_BYTES / 2;

/**
 * The block of `count` value records at `at` as 16-bit words, record k's metric id at word 5k: a view of
 * the file where the block is 2-byte aligned on a little-endian machine (always, in practice), else a
 * decoded copy. An element load per record rather than a DataView call, which is what a cold process
 * pays for the 50 000 records (most of them scopes the model does not use) of lammps-openmp.
 */
function metricIdWords(view: DataView, at: number, count: number): Uint16Array {
  if (count === 0) return new Uint16Array(0);
  if (HOST_LITTLE_ENDIAN && (view.byteOffset + at) % 2 === 0)
    return new Uint16Array(view.buffer, view.byteOffset + at, count * RECORD_WORDS);
  const words = new Uint16Array(count * RECORD_WORDS);
  for (let k = 0; k < count; k++) words[k * RECORD_WORDS] = view.getUint16(at + k * VALUE_RECORD_BYTES, true);
  return words;
}

export const hpctoolkitMetaDbReader: ProfileReader = {
  ...hpctoolkitMetaDbSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const { signal, onProgress, limits } = options;
    const files = databaseFiles(path);
    // The files' sizes only weigh the progress of reading them: not looked up when nobody listens.
    const metaSize = onProgress ? statSync(files.meta).size : 1;
    const profileSize = onProgress ? statSync(files.profile).size : 1;
    const cctSize = onProgress && files.cct ? statSync(files.cct).size : 0;
    const traceSize = onProgress && files.trace ? statSync(files.trace).size : 0;
    const total = Math.max(1, metaSize + profileSize + cctSize + traceSize);
    const readShare = (0.8 * metaSize) / total;
    const profileEnd = (0.8 * (metaSize + profileSize)) / total;
    const cctEnd = (0.8 * (metaSize + profileSize + cctSize)) / total;
    /** The bytes of one of the files, its reading reported as the progress from `from` to `to`. */
    const read = (file: string, from: number, to: number, what: string) =>
      readBytes(file, { signal, limits, onProgress: f => onProgress?.(from + (to - from) * f, what) });
    onProgress?.(0, 'Reading meta.db');
    const meta = parseMetaDb(files.meta, await read(files.meta, 0, readShare, 'Reading meta.db'));
    const warnings: string[] = [];
    const taxonomy = files.taxonomy ? await readTaxonomy(files.taxonomy, options, warnings) : [];
    throwIfAborted(signal);
    const profiles = parseProfileDb(
      files.profile,
      await read(files.profile, readShare, profileEnd, 'Reading profile.db'),
    );
    const cct = files.cct ? parseCctDb(files.cct, await read(files.cct, profileEnd, cctEnd, 'Reading cct.db')) : null;
    const trace = files.trace
      ? parseTraceDb(files.trace, await read(files.trace, cctEnd, 0.8, 'Reading trace.db'))
      : null;
    onProgress?.(0.8, 'Building the call tree');
    const profile = buildProfile(path, files, meta, profiles, cct, trace, taxonomy, warnings, options);
    onProgress?.(1);
    return profile;
  },
};

interface DatabaseFiles {
  dir: string;
  meta: string;
  profile: string;
  cct: string | null;
  trace: string | null;
  taxonomy: string | null;
}

/** The files of the database at `path` (the directory, or its meta.db); each may be gzip-compressed. */
function databaseFiles(path: string): DatabaseFiles {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
  const dir = isDir ? path : dirname(path);
  // One directory listing rather than a file-system call per candidate name.
  let names: Set<string>;
  try {
    names = new Set(readdirSync(dir));
  } catch (e) {
    throw fromFileSystemError(e, dir);
  }
  const find = (name: string) =>
    names.has(name) ? join(dir, name) : names.has(`${name}.gz`) ? join(dir, `${name}.gz`) : null;
  const meta = isDir ? find('meta.db') : path;
  if (!meta) throw new ProfileReadError(path, 'the directory has no meta.db, so it is not an HPCToolkit v4 database');
  const profile = find('profile.db');
  if (!profile)
    throw new ProfileReadError(
      path,
      `profile.db is missing from ${dir}: the measurements of an HPCToolkit v4 database are in profile.db`,
    );
  const metrics = join(dir, 'metrics');
  const taxonomy = !names.has('metrics')
    ? null
    : ([join(metrics, 'default.yaml'), join(metrics, 'default.yaml.gz')].find(p => existsSync(p)) ?? null);
  return { dir, meta, profile, cct: find('cct.db'), trace: find('trace.db'), taxonomy };
}

/**
 * hpcprof's taxonomies are a few KB (one entry per metric); a larger one is damaged or hostile, and
 * YAML parsing is not cheap enough to take megabytes of it.
 */
const MAX_TAXONOMY_BYTES = 1 << 20;

/** The metric taxonomy only adds names and descriptions: when it cannot be read, say so and go on. */
async function readTaxonomy(
  path: string,
  { signal, limits }: ReadOptions,
  warnings: string[],
): Promise<TaxonomyEntry[]> {
  try {
    return parseMetricTaxonomy(
      (await readBytes(path, { signal, limits, maxBytes: MAX_TAXONOMY_BYTES })).toString('utf8'),
    );
  } catch (e) {
    if (isAbortError(e)) throw e;
    warnings.push(
      `${path} could not be read (${e instanceof ProfileReadError ? e.reason : (e as Error).message.split('\n')[0]}); metric names come from meta.db alone`,
    );
    return [];
  }
}

/** One model metric: the meta.db metric and the ids of the scopes we take its values from. */
interface MetricPlan {
  descriptor: MetricDescriptor;
  /** propMetricId of the execution scope (inclusive), or -1. */
  executionId: number;
  /** propMetricId of the point scope, used as exclusive only when there is no execution scope. */
  pointId: number;
}

function planMetrics(meta: MetaDb, taxonomy: TaxonomyEntry[], warnings: string[]): MetricPlan[] {
  const rank = new Map(taxonomy.map((t, i) => [t.metric, i]));
  const ordered = [...meta.metrics].sort((a, b) => (rank.get(a.name) ?? Infinity) - (rank.get(b.name) ?? Infinity));
  const plans: MetricPlan[] = [];
  const names = new Set<string>();
  for (const m of ordered) {
    const idOf = (type: number) => m.scopes.find(s => s.scope.type === type)?.propMetricId ?? -1;
    const executionId = idOf(ScopeType.Execution);
    const pointId = executionId >= 0 ? -1 : idOf(ScopeType.Point);
    if (executionId < 0 && pointId < 0) {
      warnings.push(
        `metric "${m.name}" has neither an execution nor a point scope (scopes: ${m.scopes.map(s => s.scope.name).join(', ') || 'none'}); it is left out`,
      );
      continue;
    }
    let name = m.name === 'CPUTIME (sec)' ? 'time' : m.name;
    while (names.has(name)) name += "'";
    names.add(name);
    const entry = taxonomy[rank.get(m.name) ?? -1];
    plans.push({
      descriptor: {
        name,
        label: entry?.name ?? m.name,
        sourceKeys: [m.name],
        unit: unitOf(m),
        kind: executionId >= 0 ? 'both' : 'exclusive',
        aggregation: 'sum',
      },
      executionId,
      pointId,
    });
  }
  return plans;
}

/** hpcrun writes units in parentheses: `CPUTIME (sec)`, `GPU time (ns)`. */
function unitOf(m: MetricDescription): string {
  const u = /\(([^()]+)\)\s*$/.exec(m.name);
  return u ? normaliseUnit(u[1]) : '';
}

function buildProfile(
  path: string,
  files: DatabaseFiles,
  meta: MetaDb,
  db: ProfileDb,
  cct: CctDb | null,
  trace: TraceDb | null,
  taxonomy: TaxonomyEntry[],
  warnings: string[],
  options: ReadOptions,
): Profile {
  const b = new ProfileBuilder('hpctoolkit-metadb', path);
  b.warnings.push(...warnings);
  const { nodeOfRow, nodeName } = addContextTree(meta, b.tree, files.dir);
  const t = meta.contexts;
  const parentNode = new Int32Array(b.tree.size).fill(-1);
  for (let r = 0; r < t.count; r++) if (t.parent[r]! >= 0) parentNode[nodeOfRow[r]!] = nodeOfRow[t.parent[r]!]!;

  const { contextOfProfile, applicationProfiles } = addExecutionContexts(b, db.profiles, meta.idNames);

  const plans = planMetrics(meta, taxonomy, b.warnings);
  if (plans.length === 0)
    throw new ProfileReadError(
      files.meta,
      `no usable metric: meta.db lists ${meta.metrics.length === 0 ? 'no metrics' : 'only metrics without execution or point scope'}`,
    );
  // Tables by propMetricId (u16), as long as the largest id meta.db lists (not 64 Ki entries each).
  let ids = 0;
  for (const m of meta.metrics) for (const s of m.scopes) ids = Math.max(ids, s.propMetricId + 1);
  const slotOfExecution = new Int32Array(ids).fill(-1);
  const slotOfPoint = new Int32Array(ids).fill(-1);
  const knownId = new Uint8Array(ids);
  for (const m of meta.metrics) for (const s of m.scopes) knownId[s.propMetricId] = 1;
  plans.forEach((plan, k) => {
    b.addMetric(plan.descriptor);
    if (plan.executionId >= 0) slotOfExecution[plan.executionId] = k;
    if (plan.pointId >= 0) slotOfPoint[plan.pointId] = k;
  });

  // One table for the record loop: an execution slot (≥ 0), a point slot s as -3 - s, a scope meta.db
  // lists but the model does not use, or an id meta.db does not describe.
  const actionOf = new Int32Array(ids);
  for (let id = 0; id < ids; id++) {
    actionOf[id] =
      slotOfExecution[id]! >= 0
        ? slotOfExecution[id]!
        : slotOfPoint[id]! >= 0
          ? -3 - slotOfPoint[id]!
          : knownId[id]
            ? UNUSED_METRIC
            : UNKNOWN_METRIC;
  }

  // Node by context id, as a table where the ids are dense enough (hpcprof numbers them densely): a
  // load per context of each profile rather than a call. Ids past it are looked up in meta.db's index.
  let maxId = -1;
  for (let r = 0; r < t.count; r++) if (t.ctxId[r]! > maxId) maxId = t.ctxId[r]!;
  const nodeOfId = new Int32Array(maxId >= 0 && maxId <= 8 * t.count + 4096 ? maxId + 1 : 0).fill(-1);
  if (nodeOfId.length > 0) for (let r = 0; r < t.count; r++) nodeOfId[t.ctxId[r]!] = nodeOfRow[r]!;
  const nodeOfCtx = (ctxId: number) => {
    const row = t.rowOf(ctxId);
    return row >= 0 ? nodeOfRow[row]! : -1;
  };

  const valueShare = trace ? 0.09 : 0.18;
  const onValues = (f: number) => options.onProgress?.(0.8 + valueShare * f, 'Reading values');
  const reading: ValueReading = {
    actionOf,
    nodeOfId,
    nodeOfCtx,
    parentNode,
    slots: plans.length,
    applicationProfiles,
    contextOfProfile,
    signal: options.signal,
    onProgress: onValues,
  };
  const { unknownMetricValues, unlistedPointValues, negative } =
    (cct ? readContextMajorValues(b, cct, db, reading) : null) ?? readProfileMajorValues(b, db, reading);
  if (unknownMetricValues)
    b.warnings.push(`${unknownMetricValues} values have metric ids that meta.db does not describe; they are ignored`);
  if (unlistedPointValues)
    b.warnings.push(
      `${unlistedPointValues} point-scope values belong to contexts meta.db does not list; without an execution scope they cannot be placed and are left out`,
    );
  if (negative)
    b.warnings.push(
      `${negative} exclusive values came out negative: some contexts' children add up to more than the context itself in the database`,
    );

  Object.assign(b.metadata, metadataOf(meta, taxonomy, applicationProfiles.length));
  if (trace) {
    b.metadata['hpctoolkit.traceSamples'] = addTraceTimeline(
      b,
      trace,
      meta,
      { nodeOfRow, parentNode, nodeName },
      db.profiles,
      contextOfProfile,
      {
        signal: options.signal,
        onProgress: f => options.onProgress?.(0.89 + 0.09 * f, 'Building the timeline'),
      },
    );
  }
  const primary = plans.findIndex(p => p.descriptor.name === 'time');
  return b.build(
    primary >= 0
      ? primary
      : Math.max(
          0,
          plans.findIndex(p => isTimeUnit(p.descriptor.unit)),
        ),
  );
}

/** What both ways of reading values look up and report to: see buildProfile. */
interface ValueReading {
  /** By metric id: an execution slot (≥ 0), a point slot s as -3 - s, UNUSED_METRIC or UNKNOWN_METRIC. */
  actionOf: Int32Array;
  /** Node by context id where the ids are dense (else empty); nodeOfCtx for any id (-1: not listed). */
  nodeOfId: Int32Array;
  nodeOfCtx: (ctxId: number) => number;
  parentNode: Int32Array;
  slots: number;
  /** In context order, with the context of each profile index (-1: a summary). */
  applicationProfiles: readonly ProfileInfo[];
  contextOfProfile: Int32Array;
  signal: AbortSignal | undefined;
  onProgress: (fraction: number) => void;
}

/** What {@link readProfileMajorValues} and {@link readContextMajorValues} report besides the values. */
interface ValueCounts {
  unknownMetricValues: number;
  unlistedPointValues: number;
  negative: number;
}

/**
 * The values from cct.db's records (cct-records.ts), profile by profile into the same
 * {@link ValueLoader} as profile.db's; null when cct.db cannot be read that way.
 */
function readContextMajorValues(
  b: ProfileBuilder,
  cct: CctDb,
  db: ProfileDb,
  reading: ValueReading,
): ValueCounts | null {
  const { applicationProfiles, contextOfProfile, signal, onProgress } = reading;
  const records = gatherProfileRecords({
    cct,
    actionOf: reading.actionOf,
    nodeOfId: reading.nodeOfId,
    nodeOfCtx: reading.nodeOfCtx,
    // Room for each application profile's records; a summary profile's (none in cct.db) would not fit.
    capacity: db.profiles.map(p => (p.isSummary ? 0 : p.nValues)),
    point: (slot, node, profile, value) => {
      const ctx = contextOfProfile[profile]!;
      if (ctx >= 0) b.addExclusive(slot, node, ctx, value);
    },
  });
  if (!records) return null;
  const loader = new ValueLoader(b, reading.parentNode, reading.slots);
  const { start, end } = records;
  applicationProfiles.forEach((p, i) => {
    throwIfAborted(signal);
    const from = start[p.index]!,
      to = end[p.index]!;
    loader.adopt(records.slot.subarray(from, to), records.node.subarray(from, to), records.value.subarray(from, to));
    loader.flush(contextOfProfile[p.index]!);
    onProgress((i + 1) / applicationProfiles.length);
  });
  return { ...records, negative: loader.negative };
}

/** The values from profile.db, profile by profile, into the builder's triples (see {@link ValueLoader}). */
function readProfileMajorValues(b: ProfileBuilder, db: ProfileDb, reading: ValueReading): ValueCounts {
  const { actionOf, nodeOfId, nodeOfCtx, parentNode, slots } = reading;
  const { applicationProfiles, contextOfProfile, signal, onProgress } = reading;
  const ids = actionOf.length;
  const loader = new ValueLoader(b, parentNode, slots);
  let unknownMetricValues = 0;
  let unlistedPointValues = 0;
  applicationProfiles.forEach((p, i) => {
    throwIfAborted(signal);
    const ctx = contextOfProfile[p.index]!;
    // Each record is decoded where it is used: no arrays of metric ids and values in between.
    const { ctxIds, starts, view, pValues } = readProfileContexts(db, p);
    loader.start(p.nValues);
    const ids16 = metricIdWords(view, pValues, p.nValues);
    const { entrySlot, entryNode, entryValue } = loader;
    let count = 0;
    for (let j = 0; j < ctxIds.length; j++) {
      const ctxId = ctxIds[j]!;
      const node = ctxId < nodeOfId.length ? nodeOfId[ctxId]! : nodeOfCtx(ctxId);
      const end = starts[j + 1]!;
      for (
        let k = starts[j]!, at = pValues + k * VALUE_RECORD_BYTES, w = k * RECORD_WORDS;
        k < end;
        k++, at += VALUE_RECORD_BYTES, w += RECORD_WORDS
      ) {
        const metricId = ids16[w]!;
        const action = metricId < ids ? actionOf[metricId]! : UNKNOWN_METRIC;
        if (action >= 0) {
          if (node >= 0) {
            // ValueLoader.add, written out: no call per value.
            entrySlot[count] = action;
            entryNode[count] = node;
            entryValue[count++] = view.getFloat64(at + VALUE_OFFSET, true);
          }
        } else if (action === UNUSED_METRIC) continue;
        else if (action === UNKNOWN_METRIC) unknownMetricValues++;
        else if (node >= 0) b.addExclusive(-3 - action, node, ctx, view.getFloat64(at + VALUE_OFFSET, true));
        else if (ctxId !== 0) unlistedPointValues++;
      }
    }
    loader.count = count;
    loader.flush(ctx);
    onProgress((i + 1) / applicationProfiles.length);
  });
  return { unknownMetricValues, unlistedPointValues, negative: loader.negative };
}

/**
 * Collects one profile's execution-scope values per metric and emits inclusive = the value and
 * exclusive = the value minus its children's values. Work is proportional to the values present
 * (parents of non-zero contexts are non-zero), not to the tree size. Entries go into flat typed
 * arrays and each metric's results out as one column ({@link ProfileBuilder.addCheckedColumn}):
 * no call per value, which is what keeps a first read in a fresh process out of the interpreter.
 */
class ValueLoader {
  negative = 0;
  /** The profile's entries (slot, node, value) in file order, `count` in use; the caller fills them after {@link start}. */
  entrySlot: Int32Array<ArrayBufferLike> = new Int32Array(0);
  entryNode: Int32Array<ArrayBufferLike> = new Int32Array(0);
  entryValue: Float64Array<ArrayBufferLike> = new Float64Array(0);
  count = 0;
  /** Entries per slot, then (after a prefix sum) where each slot's entries start in `sorted*`. */
  private readonly slotStart: Int32Array;
  private sortedNode: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private sortedValue: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private readonly inclusive: Float64Array;
  private readonly exclusive: Float64Array;
  /** Per node: 0 untouched by the current slot, 1 touched as a parent only, 2 holding a value of its own. */
  private readonly touchedMark: Uint8Array;
  /** Nodes touched by the current slot, in first-touch order. */
  private readonly touched: Int32Array;
  /** A slot's results where non-zero and finite: nodes and values, per side. */
  private readonly inclusiveNodes: Int32Array;
  private readonly outInclusive: Float64Array;
  private readonly exclusiveNodes: Int32Array;
  private readonly outExclusive: Float64Array;

  constructor(
    private readonly b: ProfileBuilder,
    private readonly parent: Int32Array,
    private readonly slots: number,
  ) {
    const n = parent.length;
    this.slotStart = new Int32Array(slots + 1);
    this.inclusive = new Float64Array(n);
    this.exclusive = new Float64Array(n);
    this.touchedMark = new Uint8Array(n);
    this.touched = new Int32Array(n);
    this.inclusiveNodes = new Int32Array(n);
    this.outInclusive = new Float64Array(n);
    this.exclusiveNodes = new Int32Array(n);
    this.outExclusive = new Float64Array(n);
  }

  /** Makes room for a profile of up to `values` entries. */
  start(values: number): void {
    if (this.entrySlot.length < values) {
      this.entrySlot = new Int32Array(values);
      this.entryNode = new Int32Array(values);
      this.entryValue = new Float64Array(values);
      if (this.slots > 1) {
        this.sortedNode = new Int32Array(values);
        this.sortedValue = new Float64Array(values);
      }
    }
    this.count = 0;
  }

  /** Takes a profile's entries gathered elsewhere (as views, not copied), in place of {@link start} and filling. */
  adopt(slot: Int32Array, node: Int32Array, value: Float64Array): void {
    this.entrySlot = slot;
    this.entryNode = node;
    this.entryValue = value;
    this.count = value.length;
    if (this.slots > 1 && this.sortedNode.length < value.length) {
      this.sortedNode = new Int32Array(value.length);
      this.sortedValue = new Float64Array(value.length);
    }
  }

  flush(ctx: number): void {
    const { inclusive, exclusive, parent, touched, touchedMark, slotStart } = this;
    const { inclusiveNodes, outInclusive, exclusiveNodes, outExclusive } = this;
    const { entrySlot, entryNode, entryValue, count } = this;
    let { sortedNode, sortedValue } = this;
    if (this.slots === 1) {
      // One metric: the entries are already in slot order (a sort would copy them unchanged).
      sortedNode = entryNode;
      sortedValue = entryValue;
      slotStart[0] = count;
    } else {
      // A stable counting sort by slot: each metric's entries keep the file's order, so sums come out
      // in the same order (and bit for bit the same) as when they were gathered metric by metric.
      slotStart.fill(0);
      for (let k = 0; k < count; k++) slotStart[entrySlot[k]! + 1]!++;
      for (let s = 0; s < this.slots; s++) slotStart[s + 1]! += slotStart[s]!;
      for (let k = 0; k < count; k++) {
        const at = slotStart[entrySlot[k]!]!++;
        sortedNode[at] = entryNode[k]!;
        sortedValue[at] = entryValue[k]!;
      }
    }
    // slotStart[s] now ends slot s; slot s starts where slot s - 1 ends.
    for (let slot = 0; slot < this.slots; slot++) {
      const end = slotStart[slot]!;
      const begin = slot === 0 ? 0 : slotStart[slot - 1]!;
      if (begin === end) continue;
      let nTouched = 0;
      for (let k = begin; k < end; k++) {
        const n = sortedNode[k]!,
          v = sortedValue[k]!,
          p = parent[n]!;
        // A node's first term is stored, not added to 0: the same number (0 + v and v differ only for
        // v = -0, a zero either way), one double fewer for a cold process's interpreter to box.
        if (!touchedMark[n]) {
          touchedMark[n] = 2;
          touched[nTouched++] = n;
          inclusive[n] = v;
          exclusive[n] = v;
        } else {
          if (touchedMark[n] === 2) inclusive[n]! += v;
          else {
            touchedMark[n] = 2;
            inclusive[n] = v;
          }
          exclusive[n]! += v;
        }
        if (p >= 0) {
          if (!touchedMark[p]) {
            touchedMark[p] = 1;
            touched[nTouched++] = p;
            exclusive[p] = -v;
          } else exclusive[p]! -= v;
        }
      }
      // The results are kept only where non-zero and finite (x - x is NaN exactly for NaN and
      // ±Infinity), so the builder copies them whole.
      let nInclusive = 0;
      let nExclusive = 0;
      for (let k = 0; k < nTouched; k++) {
        const n = touched[k]!;
        let x = exclusive[n]!;
        const inc = inclusive[n]!;
        // The subtraction leaves rounding residue where the true self cost is zero (|x| ≤ RESIDUE·|inc|,
        // written without Math.abs calls, which a cold process makes one by one).
        if ((x < 0 ? -x : x) <= RESIDUE * (inc < 0 ? -inc : inc)) x = 0;
        else if (x < 0) this.negative++;
        if (inc !== 0 && inc - inc === 0) {
          inclusiveNodes[nInclusive] = n;
          outInclusive[nInclusive++] = inc;
        }
        if (x !== 0 && x - x === 0) {
          exclusiveNodes[nExclusive] = n;
          outExclusive[nExclusive++] = x;
        }
        inclusive[n] = 0;
        exclusive[n] = 0;
        touchedMark[n] = 0;
      }
      this.b.addCheckedColumn(slot, 'inclusive', ctx, inclusiveNodes, outInclusive, nInclusive);
      this.b.addCheckedColumn(slot, 'exclusive', ctx, exclusiveNodes, outExclusive, nExclusive);
    }
  }
}

function metadataOf(meta: MetaDb, taxonomy: TaxonomyEntry[], profiles: number): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {
    title: meta.title,
    description: meta.description,
    'hpctoolkit.format': `meta.db 4.${meta.minorVersion}`,
    'hpctoolkit.profiles': profiles,
  };
  if (taxonomy.length) {
    out['hpctoolkit.metricTaxonomy'] = taxonomy.map(t => ({
      metric: t.metric,
      name: [...t.groups, t.name].join(' › '),
      description: t.description,
      inclusiveScope: t.inclusiveScope,
      exclusiveScope: t.exclusiveScope,
    }));
  }
  return out;
}
