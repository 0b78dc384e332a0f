import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { entityOfLp, MAX_LP_ID, PdesEntities } from '../../pdes/model/entities';
import { linkCounts } from '../../pdes/model/network';
import { EventTrace } from '../../pdes/model/event-trace';
import { placeLps } from '../../pdes/model/placement';
import { ROSS_CODES_FORMAT, type PdesRun, type PdesRunFiles, type UnknownTraceLps } from '../../pdes/model/pdes-run';
import type { CodesConfig, LpStats, RossCommandLine, RossSummary } from '../../pdes/model/run-config';
import { SampleSet, type SamplingMode } from '../../pdes/model/sample-set';
import { ENTITY_LEVELS } from '../../pdes/model/metrics';
import { readHeadBytes } from '../file-sample';
import { readChunks } from '../io/file-input';
import { ProfileReadError, throwIfAborted, type ReadOptions } from '../reader';
import { codesLpTypes, looksLikeCodesConfig, parseCodesConfig } from './codes-config';
import { ModelSampleCollector } from './codes-model-samples';
import { readLinkStats, readPacketTraces, readRouterTimings, readTerminalStats } from './codes-network';
import { RossEventTraceDecoder, RossRecordError, RossStatsDecoder, type TrailingBytes } from './record-decoder';
import { STATS_FILE } from './pdes-run-sniffer';
import { parseCommandLine, readLpStats, readRossCsv } from './ross-csv';
import { EngineSampleIngest } from './sample-ingest';

export { sniffPdesRun } from './pdes-run-sniffer';

export interface PdesReadOptions extends ReadOptions {
  /**
   * For a single stats file whose name does not say its sampling mode (`*-gvt.bin`, `*-rt.bin`,
   * `*-analysis-lps.bin`): the mode to read it as (default `gvt`).
   */
  mode?: SamplingMode;
}

const STATS_KEY: Record<string, 'gvt' | 'rt' | 'vt' | 'evtrace'> = {
  gvt: 'gvt',
  rt: 'rt',
  'analysis-lps': 'vt',
  evtrace: 'evtrace',
};

/**
 * Reads a ROSS / CODES output folder (or one ROSS stats file) into a {@link PdesRun}: `ross.csv`,
 * the command line, the CODES config, `ross_all_lp_stats/`, the engine and model samples of
 * `*-gvt.bin`, `*-rt.bin` and `*-analysis-lps.bin`, the event trace `*-evtrace.bin`, and CODES's
 * `packet-latency/`, `router-timing/` and `lp-io/` output. Bad input fails with a ProfileReadError
 * naming the folder, the file and (for binary records) the byte offset; a truncated last record is
 * a warning and the records before it are kept.
 */
export async function readPdesRun(path: string, options: PdesReadOptions = {}): Promise<PdesRun> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ProfileReadError(path, code === 'ENOENT' ? 'no such file or directory' : (e as Error).message, {
      cause: e,
    });
  }
  const files = isDir ? await discoverRunFiles(path) : singleFile(path, options.mode);
  const warnings = files.warnings;
  try {
    return await readRun(path, files.files, warnings, options);
  } catch (e) {
    // Errors name the folder the user opened, then the member file that failed.
    if (!isDir || !(e instanceof ProfileReadError) || e.path === path) throw e;
    const rel = relative(path, e.path);
    if (e instanceof RossRecordError) throw new RossRecordError(path, e.offset, `${rel}: ${e.what}`);
    throw new ProfileReadError(path, `${rel}: ${e.reason}`, { cause: e });
  }
}

async function readRun(
  path: string,
  files: PdesRunFiles,
  warnings: string[],
  options: PdesReadOptions,
): Promise<PdesRun> {
  const { signal } = options;
  const progress = await byteProgress(files, options.onProgress);

  const { summary, command, codesConfig, lpTypes, lpStats, entities, kpsPerPeDeclared } = await readRunLayout(
    files,
    warnings,
  );

  const samples: PdesRun['samples'] = {};
  const models = new ModelSampleCollector();
  const lpTypeName = lpTypes ? (lp: number) => lpTypes.names[lpTypes.typeOfLp[lp] ?? -1] : undefined;
  for (const mode of ['gvt', 'rt', 'vt'] as const) {
    const file = files[mode];
    if (!file) continue;
    throwIfAborted(signal);
    const set = new SampleSet(mode);
    const ingest = new EngineSampleIngest(entities, set, { collector: models, lpTypeName });
    const decoder = new RossStatsDecoder(ingest, file, { modelRecords: mode === 'vt' });
    const trailing = await decodeFile(file, decoder, options, progress);
    if (trailing) warnings.push(truncated(file, trailing, decoder.counts.pe + decoder.counts.kp + decoder.counts.lp));
    if (mode === 'vt' && ingest.repeats)
      warnings.push(
        `${basename(file)}: ${ingest.repeats} engine samples repeated an entity at the same GVT ` +
          `(virtual-time sampling samples again after a rollback); their counts were added, their gauges keep the last value.`,
      );
    samples[mode] = set;
  }
  const collected = files.vt ? models.finish() : null;
  const modelSamples =
    collected && (collected.routers || collected.terminals || collected.unknown.size) ? collected : null;
  for (const [size, n] of modelSamples?.unknown ?? [])
    warnings.push(
      `${n} model samples of ${size} bytes are of no layout HPC Lens knows (CODES dragonfly-dally); skipped.`,
    );

  const kpsPerPe = kpsPerPeDeclared || entities.kpsPerPe;
  const placement = placeLps(entities, {
    mapping: summary?.mapping,
    totalPe: summary?.totalPe,
    totalLp: summary?.totalLp,
    kpsPerPe,
    lpStats,
    codes: codesConfig !== null,
  });

  let eventTrace: EventTrace | null = null;
  let unknownTraceLps: UnknownTraceLps | null = null;
  if (files.evtrace) {
    throwIfAborted(signal);
    const trace = new EventTrace();
    const decoder = new RossEventTraceDecoder(ev => {
      trace.append(ev.src, ev.dst, ev.sendTime, ev.recvTime, ev.realTime);
      trace.modelBytes = ev.modelBytes;
    }, files.evtrace);
    const trailing = await decodeFile(files.evtrace, decoder, options, progress);
    if (trailing) warnings.push(truncated(files.evtrace, trailing, decoder.count));
    eventTrace = trace;
    unknownTraceLps = checkTraceLps(entities, trace);
    if (unknownTraceLps)
      warnings.push(
        `${basename(files.evtrace)}: ${unknownTraceLps.events} events name ${unknownTraceLps.lps} LPs the run does not have ` +
          `(e.g. ${unknownTraceLps.examples.join(', ')}); they are left out of the communication views.`,
      );
  }
  if (placement.pe === 'none' && (eventTrace || entities.count('lp') > 0))
    warnings.push(
      'No LP→PE map (ross_all_lp_stats/, LP samples or a linear mapping in ross.csv): communication is shown between LPs only.',
    );

  const [packets, routerHops, links, terminalStats] = await Promise.all([
    files.packetLatency.length ? readPacketTraces(peFiles(files.packetLatency), { signal }) : null,
    files.routerTiming.length ? readRouterTimings(peFiles(files.routerTiming), { signal }) : null,
    files.linkStats ? readLinkStats(files.linkStats, { signal }) : null,
    files.terminalStats ? readTerminalStats(files.terminalStats, { signal }) : null,
  ]);
  if (links && linkCounts(links).total === 0) warnings.push('lp-io/dragonfly-link-stats lists no links.');

  // Natural entity order (PE-major) and time-ordered ticks, whatever order the files were in.
  const order = entities.sort();
  for (const set of Object.values(samples)) {
    for (const level of ENTITY_LEVELS) set.permuteEntities(level, order[level]);
    set.sortTicks();
  }
  options.onProgress?.(1);
  return {
    format: ROSS_CODES_FORMAT,
    path,
    name: basename(path),
    files,
    summary,
    command,
    codesConfig,
    lpTypes,
    entities,
    placement,
    samples,
    modelSamples,
    eventTrace,
    unknownTraceLps,
    lpStats,
    packets,
    routerHops,
    links,
    terminalStats,
    warnings,
  };
}

/** What a run declares about itself before any sample: its summary, command, CODES config and LPs. */
export interface RunLayout {
  summary: RossSummary | null;
  command: RossCommandLine | null;
  codesConfig: CodesConfig | null;
  lpTypes: PdesRun['lpTypes'];
  lpStats: LpStats | null;
  /** The declared KPs (PE-major, from ross.csv) and the LPs of `ross_all_lp_stats/`, interned. */
  entities: PdesEntities;
  /** total_kp / total_pe of ross.csv (0 without one). */
  kpsPerPeDeclared: number;
}

/**
 * Reads the small files that describe a run — `ross.csv`, the command line, the CODES config,
 * `ross_all_lp_stats/` — and interns the entities they declare, so that runs whose samples skip an
 * entity still count it and entities come in natural order. The whole-run reader and the live
 * monitor (which needs the LP placement before any sample arrives) share it.
 */
export async function readRunLayout(files: PdesRunFiles, warnings: string[]): Promise<RunLayout> {
  const summary: RossSummary | null = files.rossCsv ? await readRossCsv(files.rossCsv) : null;
  if (summary && summary.rows > 1)
    warnings.push(`ross.csv holds ${summary.rows} runs; the last row (the latest run) is used.`);
  const command = files.command ? parseCommandLine(await readFile(files.command, 'utf8')) : null;
  let codesConfig: CodesConfig | null = null;
  if (files.codesConfig) codesConfig = parseCodesConfig(files.codesConfig, await readFile(files.codesConfig, 'utf8'));
  const lpTypes = codesConfig?.lpGroups.length ? codesLpTypes(codesConfig) : null;
  const lpStats: LpStats | null = files.lpStats.length
    ? modelLpsOnly(
        await readLpStats(files.lpStats.map(p => ({ path: p, pe: Number(/pe_(\d+)\.txt$/.exec(p)![1]) }))),
        summary,
      )
    : null;

  // The run's declared entities first, so runs whose samples skip an entity still count it.
  const entities = new PdesEntities();
  const kpsPerPeDeclared = summary && summary.totalPe > 0 ? Math.round(summary.totalKp / summary.totalPe) : 0;
  if (summary)
    for (let p = 0; p < summary.totalPe; p++) for (let k = 0; k < kpsPerPeDeclared; k++) entities.internKp(p, k);
  if (lpStats) for (const gid of lpStats.lp) entities.internLp(gid);

  return { summary, command, codesConfig, lpTypes, lpStats, entities, kpsPerPeDeclared };
}

/**
 * ROSS numbers its hidden analysis LPs (one per KP, for virtual-time sampling) after the model's
 * LPs, and `ross.csv`'s `total_lp` counts the model's only: LPs from `total_lp` on are left out.
 */
function modelLpsOnly(stats: LpStats, summary: RossSummary | null): LpStats {
  if (!summary || !(summary.totalLp > 0)) return stats;
  const keep: number[] = [];
  stats.lp.forEach((gid, i) => gid < summary.totalLp && keep.push(i));
  if (keep.length === stats.lp.length) return stats;
  const pick = <T extends Int32Array | Float64Array>(a: T): T =>
    a.map((_, k) => a[keep[k]!]!).subarray(0, keep.length) as T;
  return {
    lp: pick(stats.lp),
    pe: pick(stats.pe),
    processingTime: pick(stats.processingTime),
    eventsProcessed: pick(stats.eventsProcessed),
  };
}

/** Events whose sender or receiver is no LP of the run; null when all are known or nothing says which LPs exist. */
function checkTraceLps(entities: PdesEntities, trace: EventTrace): UnknownTraceLps | null {
  const { src, dst } = trace.columns;
  if (entities.count('lp') === 0) {
    // Nothing declares the LPs: the trace defines them (implausible ids aside).
    for (let i = 0; i < src.length; i++) {
      if (src[i]! >>> 0 < MAX_LP_ID) entities.internLp(src[i]!);
      if (dst[i]! >>> 0 < MAX_LP_ID) entities.internLp(dst[i]!);
    }
    if (entities.count('lp') === 0) return null;
  }
  const known = entities.lpLookup('lp');
  const unknown = new Set<number>();
  let events = 0;
  for (let i = 0; i < src.length; i++) {
    const badS = entityOfLp(known, src[i]!) < 0;
    const badD = entityOfLp(known, dst[i]!) < 0;
    if (badS || badD) {
      events++;
      // Ids are u32 in the file, int32 in the trace columns.
      if (badS) unknown.add(src[i]! >>> 0);
      if (badD) unknown.add(dst[i]! >>> 0);
    }
  }
  if (!events) return null;
  const examples = [...unknown].sort((a, b) => a - b).slice(0, 5);
  return { events, lps: unknown.size, examples };
}

async function decodeFile(
  path: string,
  decoder: { push(chunk: Uint8Array): void; finish(): TrailingBytes | null },
  options: ReadOptions,
  progress: (bytes: number) => void,
): Promise<TrailingBytes | null> {
  for await (const chunk of readChunks(path, { signal: options.signal })) {
    decoder.push(chunk);
    progress(chunk.length);
  }
  return decoder.finish();
}

function truncated(path: string, t: TrailingBytes, recordsRead: number): string {
  return (
    `${basename(path)}: the last record is truncated (${t.bytes} of ${t.needed} bytes at byte offset ${t.offset}); ` +
    `the ${recordsRead} records before it were read.`
  );
}

async function byteProgress(
  files: PdesRunFiles,
  onProgress: ReadOptions['onProgress'],
): Promise<(bytes: number) => void> {
  if (!onProgress) return () => {};
  const paths = [files.gvt, files.rt, files.vt, files.evtrace].filter((p): p is string => !!p);
  const sizes = await Promise.all(paths.map(async p => (await stat(p)).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  let done = 0;
  return bytes => {
    done += bytes;
    if (total > 0) onProgress(Math.min(0.99, done / total), 'reading ROSS samples');
  };
}

function peFiles(paths: readonly string[]): { path: string; pe: number }[] {
  return paths.map(p => ({ path: p, pe: Number(/gid=(\d+)\.txt$/.exec(p)![1]) }));
}

/** One stats file opened on its own: its name (or `mode`) says what it holds. */
function singleFile(path: string, mode?: SamplingMode): { files: PdesRunFiles; warnings: string[] } {
  const files: PdesRunFiles = { lpStats: [], packetLatency: [], routerTiming: [] };
  const m = STATS_FILE.exec(basename(path));
  const key = mode ?? (m ? STATS_KEY[m[2]!]! : 'gvt');
  files[key] = path;
  if (m) files.statsPrefix = m[1];
  return { files, warnings: [] };
}

/** Numbers in file names compare by value (pe_10 after pe_9). */
const byNumber = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/**
 * Finds a run's files in its folder: ROSS's fixed names at the top (`ross.csv`, `command.txt`,
 * `ross_all_lp_stats/`), CODES's (`lp-io/`, `packet-latency/`, `router-timing/`, the `*.conf` whose
 * content is a CODES config), and the stats files `<prefix>-{gvt,rt,analysis-lps,evtrace}.bin` in
 * the folder or in a folder up to two levels below (ROSS's `--stats-path`).
 */
export async function discoverRunFiles(dir: string): Promise<{ files: PdesRunFiles; warnings: string[] }> {
  const files: PdesRunFiles = { lpStats: [], packetLatency: [], routerTiming: [] };
  const warnings: string[] = [];
  const top = await readdir(dir, { withFileTypes: true });
  const listDir = async (sub: string, pattern: RegExp): Promise<string[]> => {
    try {
      return (await readdir(join(dir, sub)))
        .filter(n => pattern.test(n))
        .sort(byNumber)
        .map(n => join(dir, sub, n));
    } catch {
      return [];
    }
  };
  for (const e of top) {
    const p = join(dir, e.name);
    if (e.isFile()) {
      if (e.name === 'ross.csv') files.rossCsv = p;
      else if (e.name === 'command.txt') files.command = p;
      else if (
        /\.conf$/.test(e.name) &&
        !files.codesConfig &&
        looksLikeCodesConfig(readHeadBytes(p, 4096).toString('utf8'))
      )
        files.codesConfig = p;
    } else if (e.isDirectory()) {
      if (e.name === 'ross_all_lp_stats') files.lpStats = await listDir(e.name, /^pe_\d+\.txt$/);
      else if (e.name === 'packet-latency') files.packetLatency = await listDir(e.name, /^packets-delay-gid=\d+\.txt$/);
      else if (e.name === 'router-timing') files.routerTiming = await listDir(e.name, /^router-timing-gid=\d+\.txt$/);
      else if (e.name === 'lp-io') {
        const lpio = await listDir(e.name, /^dragonfly-(link|cn)-stats$/);
        files.linkStats = lpio.find(p => p.endsWith('dragonfly-link-stats'));
        files.terminalStats = lpio.find(p => p.endsWith('dragonfly-cn-stats'));
      }
    }
  }
  // Stats files, grouped by prefix.
  const byPrefix = new Map<string, Partial<Record<'gvt' | 'rt' | 'vt' | 'evtrace', string>>>();
  const scan = async (sub: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => byNumber(a.name, b.name))) {
      const rel = sub ? join(sub, e.name) : e.name;
      const m = e.isFile() ? STATS_FILE.exec(e.name) : null;
      if (m) {
        const key = `${sub}\0${m[1]}`;
        const group = byPrefix.get(key) ?? {};
        group[STATS_KEY[m[2]!]!] = join(dir, rel);
        byPrefix.set(key, group);
      } else if (
        e.isDirectory() &&
        depth < 2 &&
        !/^(packet-latency|router-timing|ross_all_lp_stats|lp-io)$/.test(e.name)
      )
        await scan(rel, depth + 1);
    }
  };
  await scan('', 0);
  if (byPrefix.size) {
    const groups = [...byPrefix].sort((a, b) => Object.keys(b[1]).length - Object.keys(a[1]).length);
    const [key, chosen] = groups[0]!;
    Object.assign(files, chosen);
    files.statsPrefix = key.split('\0')[1];
    if (groups.length > 1)
      warnings.push(
        `The folder holds ROSS stats of ${groups.length} runs (prefixes ${groups.map(g => g[0].split('\0')[1]).join(', ')}); ` +
          `"${files.statsPrefix}" is read.`,
      );
  }
  return { files, warnings };
}
