// Directory listings and stats are synchronous: microseconds each, where an async call costs a
// thread-pool round trip that dominates reading small databases.
import { existsSync, readdirSync as readdir, statSync as stat } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { NodeKind } from '../model/call-tree';
import { exclusiveFromInclusive } from '../model/derive';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { readExperimentXml, type Experiment } from './hpctoolkit-xml/experiment-xml';
import { addHpcTraceTimeline, isHpcTraceName, readHpcTraces } from './hpctoolkit-xml/hpctrace';
import { FIRST_GPU_STREAM_THREAD, isMetricDbName, MetricDb, rankThreadOf } from './hpctoolkit-xml/metric-db';
import { planMetrics, primaryMetricOf, type MetricEntry, type MetricPlan } from './hpctoolkit-xml/metric-plan';
import { readBytes } from './io/file-input';
import { fromFileSystemError } from './io/fs-errors';
import { type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { EXPERIMENT_XML, hpctoolkitXmlSniffer } from './sniffers/hpctoolkit-xml';

/**
 * HPCToolkit's classic database (hpcprof / hpcprof-mpi up to 2020), as Hatchet's `from_hpctoolkit`
 * reads it: a directory with `experiment.xml` (tables, metric descriptions and the calling-context
 * tree) and one `*.metric-db` file per rank × thread (a node × metric matrix). Databases written
 * without metric-db files carry whole-program values inline as `<M>` elements; those are read too.
 *
 * Metric values. HPCToolkit's inclusive values are exact subtree totals, but its exclusive values
 * are per *scope*: a procedure's exclusive value repeats the cost of the statements in its loops,
 * a loop's that of its statements. The model wants exclusive values that add up to inclusive over
 * every subtree, so from a metric-db the inclusive side is kept and exclusive is derived from it
 * (every statement keeps its cost, every other node keeps what its children do not explain, which
 * in hpcprof output is 0). Hatchet instead subtracts each statement from its direct parent only,
 * which double counts statements inside loops (oracle README caveat 6).
 */

interface Located {
  dir: string;
  xml: string;
  entries: string[];
}

async function locate(path: string): Promise<Located> {
  let isDirectory: boolean;
  try {
    isDirectory = stat(path).isDirectory();
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
  const dir = isDirectory ? path : dirname(path);
  let entries: string[];
  try {
    entries = readdir(dir);
  } catch (e) {
    throw new ProfileReadError(path, `cannot list the database directory ${dir} (${(e as Error).message})`, {
      cause: e,
    });
  }
  if (!isDirectory) return { dir, xml: path, entries };
  const name = EXPERIMENT_XML.find(n => entries.includes(n));
  if (!name) throw new ProfileReadError(path, 'not an HPCToolkit database: the directory has no experiment.xml');
  return { dir, xml: join(dir, name), entries };
}

/**
 * Nodes that own cost in HPCToolkit's attribution: statements, and leaves of any kind. An
 * exclusive-only metric is kept there (other nodes' scope values repeat them).
 */
function costOwners(exp: Experiment): Uint8Array {
  const n = exp.parent.length;
  const owns = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    const p = exp.parent[i]!;
    if (p >= 0 && exp.kind[p] !== NodeKind.Statement) owns[p] = 0;
  }
  return owns;
}

/**
 * The model context of a rank × thread (thread ≥ 500: a GPU stream). As in Hatchet, a thread level
 * exists only when some rank has CPU threads besides thread 0 (`threaded`).
 */
function contextOfRankThread(b: ProfileBuilder, threaded: boolean): (rank: number, thread: number) => number {
  return (rank, thread) =>
    thread >= FIRST_GPU_STREAM_THREAD
      ? b.context({ rank, gpuStream: thread - FIRST_GPU_STREAM_THREAD })
      : b.context(threaded ? { rank, thread } : { rank });
}

const hasCpuThreads = (names: readonly string[]) =>
  names.some(n => {
    const t = rankThreadOf(n)?.thread ?? 0;
    return t !== 0 && t < FIRST_GPU_STREAM_THREAD;
  });

/** Progress over a list of files, weighted by their sizes. */
class ByteProgress {
  private done = 0;
  constructor(
    private readonly total: number,
    private readonly report?: (fraction: number, message?: string) => void,
  ) {}
  within(size: number, message: string): (fraction: number) => void {
    const start = this.done;
    this.done += size;
    return f => this.report?.((0.98 * (start + f * size)) / Math.max(1, this.total), message);
  }
}

async function readMetricDbs(
  b: ProfileBuilder,
  exp: Experiment,
  located: Located,
  dbNames: string[],
  sizes: number[],
  progress: ByteProgress,
  { signal, limits }: ReadOptions,
): Promise<MetricPlan[]> {
  if (exp.metricDbs.length === 0) {
    throw new ProfileReadError(
      located.xml,
      `the directory has ${dbNames.length} *.metric-db files but experiment.xml has no MetricDBTable describing their columns`,
    );
  }
  const plans = planMetrics(exp.metricDbs);
  // Row k of a metric-db belongs to the node with i = k + 1: two nodes with one id would share values.
  const ids = exp.xmlId.slice().sort();
  for (let k = 1; k < ids.length; k++) {
    if (ids[k] === ids[k - 1])
      throw new ProfileReadError(located.xml, `node id i="${ids[k]}" is used by two tree elements`);
  }

  const files = dbNames
    .map((name, k) => {
      const path = join(located.dir, name);
      const rt = rankThreadOf(name);
      if (!rt)
        throw new ProfileReadError(
          path,
          'cannot tell the rank and thread from the file name (expected <n>.<program>-<rank>-<thread>-<host>-<pid>-<gen>.metric-db)',
        );
      return { path, size: sizes[k]!, ...rt };
    })
    .sort((x, y) => x.rank - y.rank || x.thread - y.thread);
  const contextOf = contextOfRankThread(b, hasCpuThreads(dbNames));
  const contexts = files.map(f => contextOf(f.rank, f.thread));
  if (new Set(contexts).size < contexts.length)
    b.warnings.push('several *.metric-db files name the same rank and thread; their values are added');

  const metricIds = plans.map(p => b.addMetric(p.descriptor));
  const columns = Math.max(...exp.metricDbs.map(e => e.column)) + 1;
  const owners = plans.some(p => !p.inclusive) ? costOwners(exp) : null;
  const { xmlId } = exp;
  const n = xmlId.length;
  // Each metric-db column goes to the builder as one column of values (no call per value).
  const everyNode = Int32Array.from({ length: n }, (_, i) => i);
  const ownerNodes = owners ? everyNode.filter(i => owners[i] === 1) : everyNode;
  const ownerIds = owners ? ownerNodes.map(i => xmlId[i]!) : xmlId;
  const column = new Float64Array(n);
  for (let f = 0; f < files.length; f++) {
    throwIfAborted(signal);
    const file = files[f]!;
    const bytes = await readBytes(file.path, {
      signal,
      limits,
      onProgress: progress.within(file.size, 'Reading metric-db files'),
    });
    const db = new MetricDb(file.path, bytes);
    if (db.nodeCount < exp.maxXmlId) {
      throw new ProfileReadError(
        file.path,
        `has values for ${db.nodeCount} nodes, but experiment.xml has a node with i="${exp.maxXmlId}"`,
      );
    }
    if (db.metricCount < columns) {
      throw new ProfileReadError(
        file.path,
        `has ${db.metricCount} metric columns, but the MetricDBTable of experiment.xml describes ${columns}`,
      );
    }
    const ctx = contexts[f]!;
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[k]!;
      const entry = (plan.inclusive ?? plan.exclusive)!;
      const m = metricIds[k]!;
      if (plan.inclusive) {
        db.gather(entry.column, xmlId, column);
        b.addInclusiveColumn(m, ctx, everyNode, column, n);
      } else {
        db.gather(entry.column, ownerIds, column);
        b.addExclusiveColumn(m, ctx, ownerNodes, column, ownerNodes.length);
      }
    }
  }
  b.metadata['values'] = 'per rank and thread (*.metric-db)';
  b.metadata['metric-db files'] = files.length;
  return plans;
}

/**
 * Inline `<M>` values: one whole-program context. They are printed rounded (hpcprof uses 6
 * significant digits), so a node's inclusive value minus its children's leaves rounding noise of
 * either sign; exclusive values within that noise are taken as 0, and inclusive is then derived
 * from exclusive so the tree stays consistent.
 */
function readInlineValues(b: ProfileBuilder, exp: Experiment, xmlPath: string): MetricPlan[] {
  if (exp.metrics.length === 0)
    throw new ProfileReadError(
      xmlPath,
      'no metric values: no *.metric-db files beside experiment.xml and no MetricTable in it',
    );
  const plans = planMetrics(exp.metrics);
  const n = exp.parent.length;
  const entryIndex = new Map(exp.metrics.map((e, k) => [e, k]));
  const dense = exp.metrics.map(() => new Float64Array(0));
  const column = (e: MetricEntry): Float64Array => {
    const k = entryIndex.get(e)!;
    if (dense[k]!.length !== n) dense[k] = new Float64Array(n);
    return dense[k]!;
  };
  const { inline } = exp;
  for (let k = 0; k < inline.value.length; k++) {
    const values = column(exp.metrics[inline.metric[k]!]!);
    values[inline.node[k]!]! += inline.value[k]!;
  }
  const ctx = b.context({});
  const rounding = inline.significantDigits > 0 ? 0.5 * 10 ** (1 - inline.significantDigits) : 0;
  const owners = plans.some(p => !p.inclusive) ? costOwners(exp) : null;
  let negative = 0;
  for (const plan of plans) {
    const m = b.addMetric({ ...plan.descriptor, kind: 'exclusive' });
    if (plan.inclusive) {
      const incl = column(plan.inclusive);
      const self = exclusiveFromInclusive(exp.parent, incl, 1);
      const spread = incl.map(Math.abs);
      for (let i = n - 1; i >= 0; i--) {
        const p = exp.parent[i]!;
        if (p >= 0) spread[p]! += Math.abs(incl[i]!);
      }
      for (let i = 0; i < n; i++) {
        if (Math.abs(self[i]!) <= rounding * spread[i]!) self[i] = 0;
        else if (self[i]! < 0) negative++;
        b.addExclusive(m, i, ctx, self[i]!);
      }
    } else {
      const excl = column(plan.exclusive!);
      for (let i = 0; i < n; i++) if (owners![i]) b.addExclusive(m, i, ctx, excl[i]!);
    }
  }
  if (negative > 0)
    b.warnings.push(
      `${negative} nodes have an inclusive value below the sum of their children's (beyond rounding); their exclusive values are negative`,
    );
  if (exp.metricDbs.length > 0)
    b.warnings.push(
      'experiment.xml describes *.metric-db files, but there are none beside it: showing the whole-program values written inline',
    );
  b.metadata['values'] = 'whole-program summary (inline <M> values; no *.metric-db files)';
  return plans;
}

export const hpctoolkitXmlReader: ProfileReader = {
  ...hpctoolkitXmlSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const { signal, onProgress } = options;
    throwIfAborted(signal);
    const located = await locate(path);
    const dbNames = located.entries.filter(isMetricDbName).sort();
    const traceNames = located.entries.filter(isHpcTraceName).sort();
    const sizes = [located.xml, ...dbNames.map(n => join(located.dir, n))].map(p => stat(p).size);
    const progress = new ByteProgress(
      sizes.reduce((s, x) => s + x, 0),
      onProgress,
    );

    const b = new ProfileBuilder('hpctoolkit-xml', path);
    // hpcprof copies sources into the database's src/ and records them as ./src/<original path>.
    const hasSources = located.entries.includes('src');
    const resolveFile = (recorded: string) => {
      if (!hasSources || isAbsolute(recorded)) return recorded;
      const copy = join(located.dir, recorded);
      return existsSync(copy) ? copy : recorded;
    };
    const exp = await readExperimentXml(located.xml, b.tree, {
      inlineValues: dbNames.length === 0,
      requireIds: dbNames.length > 0,
      resolveFile,
      signal,
      limits: options.limits,
      onProgress: progress.within(sizes[0]!, 'Reading experiment.xml'),
    });
    b.warnings.push(...exp.warnings);
    Object.assign(b.metadata, exp.metadata);
    const plans =
      dbNames.length > 0
        ? await readMetricDbs(b, exp, located, dbNames, sizes.slice(1), progress, options)
        : readInlineValues(b, exp, located.xml);
    throwIfAborted(signal);
    if (traceNames.length > 0) {
      onProgress?.(0.98, 'Reading .hpctrace files');
      const traces = await readHpcTraces(located.dir, traceNames, exp.traceDb?.headerBytes ?? 32, options);
      const threaded = hasCpuThreads(dbNames.length > 0 ? dbNames : traceNames);
      addHpcTraceTimeline(b, exp, traces, contextOfRankThread(b, threaded), signal);
    }
    onProgress?.(0.99, 'Building the profile');
    const profile = b.build(primaryMetricOf(plans));
    onProgress?.(1);
    return profile;
  },
};
