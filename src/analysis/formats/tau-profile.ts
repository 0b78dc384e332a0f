// Directory listings and stats are synchronous: microseconds each, where an async call costs a
// thread-pool round trip that dominates reading small profiles.
import { readdirSync as readdir, statSync as stat } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeContext } from '../model/context';
import type { MetricDescriptor } from '../model/metric';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { ProfileReadError, throwIfAborted, type ProfileReader, type ReadOptions } from './reader';
import { fromFileSystemError } from './io/fs-errors';
import { inferNesting } from './tau/flat-nesting';
import { readTauProfileFile, TimerTable, type TauProfileFile, type TauUserEvent } from './tau/profile-file';
import { MetadataMerger } from './tau/tau-metadata';
import { callpathParts, describeTimer, isCallpath, timerKey } from './tau/timer-name';
import { MULTI_DIR, PROFILE_FILE, tauProfileSniffer } from './sniffers/tau-profile';

/**
 * TAU profiles: a directory of `profile.<node>.<context>.<thread>` files, one per thread of every
 * process, or `MULTI__<METRIC>/` directories each holding such files for one metric (see
 * tau/profile-file.ts for the file format).
 *
 * The call tree, as Hatchet's `from_tau` builds it (oracle README caveats 19–20): with
 * TAU_CALLPATH, the `A => B => C` timers are the nodes and the top-level timer (`.TAU application`)
 * is the root; the flat timers are totals of the call-path timers and are not counted again.
 * Unlike Hatchet, which keeps only the root of a profile without call paths, such a profile gets
 * the nesting its numbers prove (tau/flat-nesting.ts), or else every timer flat under the
 * top-level timer; the source locations in timer names become the nodes' file and line.
 *
 * Values: one metric per metric directory (TAU's TIME in µs is `time`), plus `calls` and `subrs`
 * (TAU's Calls and Subrs). Exclusive values are taken from the file and inclusive values are the
 * subtree sums, which equal TAU's inclusive values wherever TAU's own numbers are consistent.
 * Samples of event-based sampling (`[CONTEXT] f` → … → `[SAMPLE] line`) re-measure time that TAU
 * already counts as f's exclusive time, so their total is taken out of f's exclusive time: the
 * sampled lines then break f's own time down instead of adding to it.
 *
 * User events: an event recorded at a call path (`<event> : <call path>`, TAU's context events) becomes
 * two per-node metrics, `<event> (count)` and `<event> (total)` (count × mean, e.g. bytes sent);
 * events without a context are summarised in the metadata under `TAU user events`.
 *
 * Contexts: one per file, rank = node and thread = thread (threads only when a rank has several).
 */

/** TAU metrics that measure wall-clock time (µs); the first one present becomes `time`. */
const WALL_TIME_METRICS = ['TIME', 'P_WALL_CLOCK_TIME', 'LINUX_TIMERS'];
const CPU_TIME_METRICS = ['CPU_TIME', 'P_VIRTUAL_TIME'];

interface FileId {
  node: number;
  context: number;
  thread: number;
}

interface MetricSet {
  /** The MULTI__<metric> directory, or null for files directly in the profile directory. */
  dir: string | null;
  metric: string | null;
  /** Files by `node.context.thread`. */
  files: Map<string, string>;
}

interface Layout {
  sets: MetricSet[];
  /** Every `node.context.thread` of the profile, sorted; a lone file of another name has one entry with id null. */
  ids: { key: string; id: FileId | null }[];
  warnings: string[];
}

function fileIdKey(name: string): { key: string; id: FileId } | null {
  const m = PROFILE_FILE.exec(name);
  if (!m) return null;
  const id = { node: Number(m[1]), context: Number(m[2]), thread: Number(m[3]) };
  return { key: `${id.node}.${id.context}.${id.thread}`, id };
}

async function profileFilesIn(dir: string, warnings: string[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of readdir(dir).sort()) {
    const k = fileIdKey(name);
    if (!k) continue;
    if (files.has(k.key)) {
      warnings.push(`${join(dir, name)} duplicates ${basename(files.get(k.key)!)} and was ignored`);
      continue;
    }
    files.set(k.key, join(dir, name));
  }
  return files;
}

/** Which files make up the profile at `path` (a directory, or one of its files). */
async function locate(path: string): Promise<Layout> {
  const warnings: string[] = [];
  let dir = path;
  if (!stat(path).isDirectory()) {
    const name = basename(path);
    if (!fileIdKey(name)) {
      // A lone file of another name (a renamed or decompressed copy): one context.
      return {
        sets: [{ dir: null, metric: null, files: new Map([['', path]]) }],
        ids: [{ key: '', id: null }],
        warnings,
      };
    }
    dir = dirname(path);
    // A file inside MULTI__<metric>/ stands for the whole multi-metric profile.
    if (MULTI_DIR.test(basename(dir))) dir = dirname(dir);
  }

  const entries = readdir(dir, { withFileTypes: true });
  const multi = entries
    .filter(e => e.isDirectory() && MULTI_DIR.test(e.name))
    .map(e => e.name)
    .sort();
  const sets: MetricSet[] = [];
  if (multi.length > 0) {
    for (const name of multi)
      sets.push({
        dir: join(dir, name),
        metric: MULTI_DIR.exec(name)![1]!,
        files: await profileFilesIn(join(dir, name), warnings),
      });
    if (entries.some(e => !e.isDirectory() && fileIdKey(e.name)))
      warnings.push(`the profile files directly in ${dir} were ignored: the MULTI__ directories hold the metrics`);
  } else {
    sets.push({ dir: null, metric: null, files: await profileFilesIn(dir, warnings) });
  }
  const withFiles = sets.filter(s => s.files.size > 0);
  if (withFiles.length === 0) {
    throw new ProfileReadError(
      dir,
      'no TAU profile files: expected profile.<node>.<context>.<thread> files, or MULTI__<metric> directories holding them',
    );
  }
  for (const s of sets) if (s.files.size === 0) warnings.push(`${s.dir} holds no profile files and was ignored`);
  // Every metric must have a file for every thread; TAU writes them together.
  const all = new Map<string, FileId>();
  for (const s of withFiles) for (const name of s.files.keys()) all.set(name, fileIdKey(`profile.${name}`)!.id);
  for (const s of withFiles) {
    for (const key of all.keys()) {
      if (!s.files.has(key)) {
        const other = withFiles.find(o => o.files.has(key))!;
        throw new ProfileReadError(
          join(s.dir ?? dir, `profile.${key}`),
          `missing: ${basename(s.dir ?? dir)} has no profile.${key}, but ${basename(other.dir ?? dir)} has one`,
        );
      }
    }
  }
  const ids = [...all]
    .map(([key, id]) => ({ key, id }))
    .sort((a, b) => a.id.node - b.id.node || a.id.context - b.id.context || a.id.thread - b.id.thread);
  return { sets: withFiles, ids, warnings };
}

function describeMetrics(names: string[]): MetricDescriptor[] {
  const timeName = WALL_TIME_METRICS.find(n => names.includes(n)) ?? CPU_TIME_METRICS.find(n => names.includes(n));
  return names.map(n => ({
    name: n === timeName ? 'time' : n,
    label: n === 'TIME' ? 'Time' : n,
    sourceKeys: [n],
    unit: n.includes('TIME') ? 'µs' : n.startsWith('PAPI_') ? 'count' : '',
    kind: 'exclusive',
    aggregation: 'sum',
  }));
}

const countMetric = (name: string, label: string, sourceKey: string): MetricDescriptor => ({
  name,
  label,
  sourceKeys: [sourceKey],
  unit: 'count',
  kind: 'exclusive',
  aggregation: 'sum',
});

/** One thread's data, the values of every metric aligned to the timer lines of the first metric's file. */
interface ThreadData {
  file: TauProfileFile;
  context: number;
  exclusive: Float64Array[];
  inclusive: Float64Array[];
}

interface EventSummary {
  events: number;
  sum: number;
  min: number;
  max: number;
}

/** What the assembler needs to know of a timer name, worked out once per distinct name. */
interface TimerInfo {
  callpath: boolean;
  /** Ids of the outermost and innermost timer of a call path (the timer itself when flat) by trimmed name. */
  first: number;
  last: number;
  /** The sampling tag of the innermost timer (`SAMPLE`, `CONTEXT`, …) or null. */
  samplingTag: string | null;
}

/** Builds the model from the files of one profile, thread by thread. */
class TauAssembler {
  readonly b: ProfileBuilder;
  /** Per timer id, filled densely as files bring new timers. */
  private readonly info: TimerInfo[] = [];
  private readonly partIds = new Map<string, number>();
  /** Per part id: the number of the last thread that marked it (called, or a root), so marks need no clearing. */
  private calledMark = new Int32Array(256);
  private rootMark = new Int32Array(256);
  private threadNumber = 0;
  private readonly nodeOfKey = new Map<string, number>();
  private readonly keyOfNode: string[] = [];
  private readonly parentOfNode: number[] = [];
  /** Node of a call-path timer (or of a flat timer as a root), by timer id; -1 until needed. */
  private pathNode = new Int32Array(256).fill(-1);
  private readonly metricIds: number[] = [];
  private readonly callsMetric: number;
  private readonly subrsMetric: number;
  private readonly eventMetrics = new Map<string, { count: number; total: number }>();
  private readonly globalEvents = new Map<string, EventSummary>();
  private readonly flatThreads: ThreadData[] = [];
  readonly metadata = new MetadataMerger();
  private positions = new Int32Array(0);
  private readonly problems = {
    negative: 0,
    badMetadata: 0,
    clamped: 0,
    truncatedPaths: 0,
    inconsistent: [] as string[],
    samplingLeftOut: 0,
  };
  private callpathDepth: string | null = null;

  private readonly timeMetric: number;

  constructor(
    path: string,
    readonly timers: TimerTable,
    readonly metricNames: string[],
  ) {
    this.b = new ProfileBuilder('tau-profile', path);
    const descriptors = describeMetrics(metricNames);
    for (const d of descriptors) this.metricIds.push(this.b.addMetric(d));
    const time = descriptors.findIndex(d => d.name === 'time');
    this.timeMetric = time >= 0 ? this.metricIds[time]! : this.metricIds[0]!;
    this.callsMetric = this.b.addMetric(countMetric('calls', 'Calls', 'Calls'));
    this.subrsMetric = this.b.addMetric(countMetric('subrs', 'Child calls', 'Subrs'));
  }

  /** Adds one thread: the files of all metrics for one `node.context.thread`. */
  addThread(files: TauProfileFile[], context: number, contextLabel: string): void {
    const base = files[0]!;
    const data: ThreadData = { file: base, context, exclusive: [base.exclusive], inclusive: [base.inclusive] };
    for (let k = 1; k < files.length; k++) {
      const [e, i] = this.align(base, files[k]!);
      data.exclusive.push(e);
      data.inclusive.push(i);
    }
    for (const f of files) {
      this.problems.negative += f.negativeValues;
      if (f.badMetadata) this.problems.badMetadata++;
    }
    const attributes = base.attributes.filter(([k]) => k !== 'Metric Name');
    this.metadata.add(contextLabel, attributes);
    this.callpathDepth ??= attributes.find(([k]) => k === 'TAU_CALLPATH_DEPTH')?.[1] ?? null;

    this.describeNewTimers();
    let callpaths = false;
    for (const id of base.timers)
      if (this.timerInfo(id).callpath) {
        callpaths = true;
        break;
      }
    if (callpaths) this.addCallpathThread(data);
    else this.flatThreads.push(data);
  }

  /** The values of another metric's file in the order of the first metric's file. */
  private align(base: TauProfileFile, other: TauProfileFile): [Float64Array, Float64Array] {
    const n = base.timers.length;
    if (other.timers.length !== n) {
      throw new ProfileReadError(
        other.path,
        `lists ${other.timers.length} timers but ${base.path} lists ${n}: the metric directories do not come from the same run`,
      );
    }
    let same = true;
    for (let i = 0; i < n && same; i++) same = base.timers[i] === other.timers[i];
    if (same) return [other.exclusive, other.inclusive];
    if (this.positions.length < this.timers.size) this.positions = new Int32Array(this.timers.size * 2).fill(-1);
    const pos = this.positions;
    for (let i = 0; i < n; i++) pos[base.timers[i]!] = i;
    const e = new Float64Array(n),
      inc = new Float64Array(n);
    try {
      for (let i = 0; i < n; i++) {
        const p = pos[other.timers[i]!]!;
        if (p < 0)
          throw new ProfileReadError(
            other.path,
            `lists the timer "${this.timers.names[other.timers[i]!]}", which ${base.path} does not: the metric directories do not come from the same run`,
          );
        e[p] = other.exclusive[i]!;
        inc[p] = other.inclusive[i]!;
      }
    } finally {
      for (let i = 0; i < n; i++) pos[base.timers[i]!] = -1;
    }
    return [e, inc];
  }

  private timerInfo(id: number): TimerInfo {
    return this.info[id]!;
  }

  private describeNewTimers(): void {
    const partId = (part: string) => {
      let id = this.partIds.get(part);
      if (id === undefined) this.partIds.set(part, (id = this.partIds.size));
      return id;
    };
    for (let id = this.info.length; id < this.timers.size; id++) {
      const name = this.timers.names[id]!;
      const callpath = isCallpath(name);
      const parts = callpath ? callpathParts(name) : [name.trim()];
      const last = parts[parts.length - 1]!;
      this.info.push({
        callpath,
        first: partId(parts[0]!),
        last: partId(last),
        samplingTag: describeTimer(last).samplingTag,
      });
    }
    if (this.calledMark.length < this.partIds.size) {
      const grow = (a: Int32Array) => {
        const g = new Int32Array(this.partIds.size * 2);
        g.set(a);
        return g;
      };
      this.calledMark = grow(this.calledMark);
      this.rootMark = grow(this.rootMark);
    }
  }

  private node(parent: number, key: string, part: string): number {
    let id = this.nodeOfKey.get(key);
    if (id === undefined) {
      const d = describeTimer(part);
      id = this.b.tree.add(parent, d.name, d.kind, { file: d.file, line: d.line, module: d.module });
      this.nodeOfKey.set(key, id);
      this.keyOfNode.push(key);
      this.parentOfNode.push(parent);
    }
    return id;
  }

  private childNode(parent: number, part: string): number {
    const name = part.trim();
    return this.node(parent, parent < 0 ? name : `${this.keyOfNode[parent]} => ${name}`, name);
  }

  /** The node of a call-path timer, or of a flat timer taken as a root; parents are created as needed. */
  private nodeOfTimer(id: number): number {
    if (id >= this.pathNode.length) {
      const grown = new Int32Array(Math.max(id + 1, this.pathNode.length * 2)).fill(-1);
      grown.set(this.pathNode);
      this.pathNode = grown;
    }
    let node = this.pathNode[id]!;
    if (node < 0) {
      const name = this.timers.names[id]!;
      for (const part of isCallpath(name) ? callpathParts(name) : [name]) node = this.childNode(node, part);
      this.pathNode[id] = node;
    }
    return node;
  }

  private addCallpathThread(t: ThreadData): void {
    const { file } = t;
    const n = file.timers.length;
    const thread = ++this.threadNumber;
    const { calledMark, rootMark } = this;
    // Flat timers are totals of call-path timers, except the top-level timers nothing calls.
    for (let i = 0; i < n; i++) {
      const info = this.timerInfo(file.timers[i]!);
      if (info.callpath && file.calls[i]! > 0) calledMark[info.last] = thread;
    }
    const nodeOfLine = new Int32Array(n).fill(-1);
    let sampled = false;
    for (let i = 0; i < n; i++) {
      const info = this.timerInfo(file.timers[i]!);
      if (info.callpath) {
        nodeOfLine[i] = this.nodeOfTimer(file.timers[i]!);
        if (info.samplingTag === 'CONTEXT' && file.calls[i]! > 0) sampled = true;
      } else if (file.calls[i]! > 0 && info.samplingTag === null && calledMark[info.last] !== thread) {
        nodeOfLine[i] = this.nodeOfTimer(file.timers[i]!);
        rootMark[info.last] = thread;
      }
    }
    for (let i = 0; i < n; i++) {
      const info = this.timerInfo(file.timers[i]!);
      if (info.callpath && file.calls[i]! > 0 && rootMark[info.first] !== thread) this.problems.truncatedPaths++;
    }
    if (sampled) this.subtractSampledTime(t, nodeOfLine);
    this.emit(t, nodeOfLine);
    this.addUserEvents(t.file.userEvents, t.context, key => this.nodeOfKey.get(key) ?? -1);
  }

  /** Takes the time of every `[CONTEXT] f` subtree out of f's exclusive time (see the top of the file). */
  private subtractSampledTime(t: ThreadData, nodeOfLine: Int32Array): void {
    const lineOfNode = new Map<number, number>();
    nodeOfLine.forEach((node, i) => {
      if (node >= 0) lineOfNode.set(node, i);
    });
    for (let i = 0; i < nodeOfLine.length; i++) {
      const node = nodeOfLine[i]!;
      if (node < 0 || t.file.calls[i]! <= 0) continue;
      const info = this.timerInfo(t.file.timers[i]!);
      if (!info.callpath || info.samplingTag !== 'CONTEXT') continue;
      const parentLine = lineOfNode.get(this.parentOfNode[node]!);
      if (parentLine === undefined) continue;
      for (let m = 0; m < t.exclusive.length; m++) {
        const left = t.exclusive[m]![parentLine]! - t.inclusive[m]![i]!;
        if (left < 0) this.problems.clamped++;
        t.exclusive[m]![parentLine] = Math.max(0, left);
      }
    }
  }

  private emit(t: ThreadData, nodeOfLine: Int32Array): void {
    const { file, context } = t;
    let sumExclusive = 0,
      rootInclusive = 0;
    for (let i = 0; i < nodeOfLine.length; i++) {
      const node = nodeOfLine[i]!;
      if (node < 0) continue;
      for (let m = 0; m < this.metricIds.length; m++)
        this.b.addExclusive(this.metricIds[m]!, node, context, t.exclusive[m]![i]!);
      this.b.addExclusive(this.callsMetric, node, context, file.calls[i]!);
      this.b.addExclusive(this.subrsMetric, node, context, file.subrs[i]!);
      sumExclusive += t.exclusive[0]![i]!;
      if (this.parentOfNode[node] === -1) rootInclusive += t.inclusive[0]![i]!;
    }
    // TAU's inclusive time of the top-level timers is the thread's total: the parts must add up to it.
    if (Math.abs(sumExclusive - rootInclusive) > 1e-6 * Math.max(1, rootInclusive))
      this.problems.inconsistent.push(file.path);
  }

  /** Places the threads without call paths, once all are read (the nesting must hold in every thread). */
  finishFlatThreads(): void {
    if (this.flatThreads.length === 0) return;
    const names = this.timers.names;
    const chosen: Int32Array[] = [];
    const nestings: (Int32Array | null)[] = [];
    let failed: string | null = null;
    for (const t of this.flatThreads) {
      const lines: number[] = [];
      for (let i = 0; i < t.file.timers.length; i++) {
        if (t.file.calls[i]! <= 0) continue;
        // Samples of event-based sampling re-measure instrumented time; without call paths they cannot be placed.
        if (this.timerInfo(t.file.timers[i]!).samplingTag !== null) {
          this.problems.samplingLeftOut++;
          continue;
        }
        lines.push(i);
      }
      const sel = Int32Array.from(lines);
      chosen.push(sel);
      const pick = (a: Float64Array) => Float64Array.from(sel, i => a[i]!);
      const nesting =
        failed === null
          ? inferNesting({
              count: sel.length,
              calls: pick(t.file.calls),
              subrs: pick(t.file.subrs),
              exclusive: t.exclusive.map(pick),
              inclusive: t.inclusive.map(pick),
            })
          : null;
      if (failed === null && nesting === null) failed = t.file.path;
      nestings.push(nesting);
    }
    if (chosen.every(sel => sel.length === 0)) {
      // Nothing ran: no structure to explain.
    } else if (failed === null) {
      this.b.warnings.push(
        "the profile has no call paths (TAU_CALLPATH was off): the call tree was inferred from the timers' inclusive times and Subrs counts, which it reproduces exactly",
      );
    } else {
      this.b.warnings.push(
        `the profile has no call paths (TAU_CALLPATH was off) and no nesting of the timers reproduces their inclusive times and Subrs counts in ${failed} (typically a timer called from several places, or recursion): the timers are shown flat under the top-level timer, so their inclusive time is their exclusive time`,
      );
    }

    this.flatThreads.forEach((t, k) => {
      const sel = chosen[k]!;
      const nesting = failed === null ? nestings[k]! : null;
      const nodeOfLine = new Int32Array(t.file.timers.length).fill(-1);
      const nodeOfName = new Map<string, number>();
      for (let s = 0; s < sel.length; s++) {
        const i = sel[s]!;
        const name = names[t.file.timers[i]!]!;
        const parentLine = nesting ? nesting[s]! : s === 0 ? -1 : 0;
        const parentNode = parentLine < 0 ? -1 : nodeOfLine[sel[parentLine]!]!;
        nodeOfLine[i] = this.childNode(parentNode, name);
        nodeOfName.set(name.trim(), nodeOfLine[i]!);
      }
      this.emit(t, nodeOfLine);
      this.addUserEvents(t.file.userEvents, t.context, key => nodeOfName.get(key) ?? -1);
    });
    this.flatThreads.length = 0;
  }

  private addUserEvents(events: TauUserEvent[], context: number, nodeOf: (timerKey: string) => number): void {
    for (const e of events) {
      if (e.count === 0) continue;
      const sep = e.name.indexOf(' : ');
      const node = sep > 0 ? nodeOf(timerKey(e.name.slice(sep + 3))) : -1;
      if (node < 0) {
        const name = e.name.trim();
        const s = this.globalEvents.get(name);
        if (!s) this.globalEvents.set(name, { events: e.count, sum: e.count * e.mean, min: e.min, max: e.max });
        else {
          s.events += e.count;
          s.sum += e.count * e.mean;
          s.min = Math.min(s.min, e.min);
          s.max = Math.max(s.max, e.max);
        }
        continue;
      }
      const event = e.name.slice(0, sep).trim();
      let ids = this.eventMetrics.get(event);
      if (!ids) {
        ids = {
          count: this.b.addMetric(countMetric(`${event} (count)`, `${event}: events`, event)),
          total: this.b.addMetric({
            name: `${event} (total)`,
            label: `${event}: total`,
            sourceKeys: [event],
            unit: '',
            kind: 'exclusive',
            aggregation: 'sum',
          }),
        };
        this.eventMetrics.set(event, ids);
      }
      this.b.addExclusive(ids.count, node, context, e.count);
      this.b.addExclusive(ids.total, node, context, e.count * e.mean);
    }
  }

  build(): Profile {
    const p = this.problems;
    const w = this.b.warnings;
    if (p.truncatedPaths > 0) {
      w.push(
        `${p.truncatedPaths} call-path timers do not start at a top-level timer (TAU_CALLPATH_DEPTH=${this.callpathDepth ?? '?'} cut them): they are shown as separate roots`,
      );
    }
    if (p.inconsistent.length > 0) {
      w.push(
        `in ${p.inconsistent.length} file(s), e.g. ${p.inconsistent[0]}, the exclusive times do not add up to TAU's inclusive time of the top-level timer; the call tree shows the sums`,
      );
    }
    if (p.clamped > 0)
      w.push(`${p.clamped} times the sampled time of a timer exceeded its exclusive time; its own time was set to 0`);
    if (p.samplingLeftOut > 0)
      w.push(
        `${p.samplingLeftOut} timers of event-based sampling ([SAMPLE], [UNWIND], [CONTEXT]) were left out: without call paths they cannot be placed, and their time is already in the instrumented timers`,
      );
    if (p.negative > 0) w.push(`${p.negative} timers had negative times, read as 0`);
    if (p.badMetadata > 0) w.push(`the <metadata> block of ${p.badMetadata} file(s) is not closed and was ignored`);

    const meta: Record<string, MetadataValue> = {};
    this.metadata.into(meta);
    if (this.globalEvents.size > 0) {
      const events: Record<string, MetadataValue> = {};
      for (const [name, s] of this.globalEvents)
        events[name] = { events: s.events, sum: s.sum, mean: s.events ? s.sum / s.events : 0, min: s.min, max: s.max };
      meta['TAU user events'] = events;
    }
    Object.assign(this.b.metadata, meta);
    return this.b.build(this.timeMetric);
  }
}

/** Reads the files of every thread, one thread (all its metric files) at a time, into the assembler. */
async function readTau(path: string, options: ReadOptions): Promise<Profile> {
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  const layout = await locate(path);
  const sizes = new Map<string, number>();
  let totalBytes = 0;
  for (const s of layout.sets)
    for (const f of s.files.values()) {
      const size = stat(f).size;
      sizes.set(f, size);
      totalBytes += size;
    }
  let doneBytes = 0;
  const timers = new TimerTable();
  const readFile = async (file: string): Promise<TauProfileFile> => {
    throwIfAborted(signal);
    const size = sizes.get(file)!;
    const before = doneBytes;
    const f = await readTauProfileFile(file, timers, {
      signal,
      limits: options.limits,
      onProgress: fraction =>
        onProgress?.(totalBytes ? (0.9 * (before + fraction * size)) / totalBytes : 0, 'Reading TAU profiles'),
    });
    doneBytes += size;
    return f;
  };

  // Threads get a context of their own only when some rank has several.
  const threaded = layout.ids.some(x => x.id !== null && x.id.thread !== 0);
  let assembler: TauAssembler | null = null;
  for (const { key, id } of layout.ids) {
    const files: TauProfileFile[] = [];
    for (const s of layout.sets) files.push(await readFile(s.files.get(key)!));
    assembler ??= new TauAssembler(
      path,
      timers,
      files.map((f, k) => f.metricName ?? layout.sets[k]!.metric ?? 'TIME'),
    );
    files.forEach((f, k) => {
      const expected = assembler!.metricNames[k]!;
      const dir = layout.sets[k]!.dir;
      if (f.metricName !== null && f.metricName !== expected) {
        throw new ProfileReadError(
          f.path,
          `measures ${f.metricName}, but the other files ${dir ? `in ${basename(dir)} ` : ''}measure ${expected}: each metric belongs in its own MULTI__<metric> directory`,
        );
      }
    });
    const where = id ? { rank: id.node, thread: threaded ? id.thread : undefined } : {};
    assembler.addThread(files, assembler.b.context(where), makeContext(where).label);
  }
  if (!assembler) throw new ProfileReadError(path, 'no TAU profile files');
  throwIfAborted(signal);
  onProgress?.(0.92, 'Building the call tree');
  assembler.finishFlatThreads();
  assembler.b.warnings.push(...layout.warnings, ...layoutWarnings(layout));
  const profile = assembler.build();
  onProgress?.(1);
  return profile;
}

/** Gaps in the rank numbers, and TAU contexts our model has no place for. */
function layoutWarnings(layout: Layout): string[] {
  const out: string[] = [];
  const ids = layout.ids.flatMap(x => (x.id ? [x.id] : []));
  if (ids.some(id => id.context !== 0))
    out.push(
      'some files have a TAU context other than 0; their values are added to the rank and thread of the same numbers',
    );
  const ranks = new Set<number>();
  let maxRank = -1;
  for (const id of ids) {
    ranks.add(id.node);
    maxRank = Math.max(maxRank, id.node);
  }
  const absent = maxRank + 1 - ranks.size;
  if (absent > 0) {
    const missing: number[] = [];
    for (let r = 0; r <= maxRank && missing.length < 10; r++) if (!ranks.has(r)) missing.push(r);
    out.push(
      `no profile files for rank${absent > 1 ? 's' : ''} ${missing.join(', ')}${absent > missing.length ? ', …' : ''} (of 0–${maxRank})`,
    );
  }
  return out;
}

export const tauProfileReader: ProfileReader = {
  ...tauProfileSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    try {
      return await readTau(path, options);
    } catch (e) {
      // File-system errors (a file removed while reading, no permission) name the file they concern.
      throw fromFileSystemError(e, path);
    }
  },
};
