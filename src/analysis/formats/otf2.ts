import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { TraceBuilder } from '../model/trace-builder';
import { readBytes } from './io/file-input';
import { fromFileSystemError, isFileSystemError } from './io/fs-errors';
import { parseAnchor } from './otf2/anchor';
import { walkFile } from './otf2/chunks';
import { Otf2FormatError } from './otf2/cursor';
import { Otf2Definitions, Otf2LocalDefinitions } from './otf2/definitions';
import { Otf2Timeline } from './otf2/timeline';
import { ProfileReadError, throwIfAborted, type ProfileReader, type ReadOptions } from './reader';
import { findAnchors, otf2Sniffer } from './sniffers/otf2';

/** OTF2_LocationType and OTF2_LocationGroupType values. */
const LOCATION_GPU = 2,
  LOCATION_METRIC = 3,
  GROUP_PROCESS = 1;

/**
 * OTF2 traces as Score-P writes them: the anchor file `<name>.otf2`, the global definitions
 * `<name>.def`, and per location `<name>/<id>.evt` (events) with `<name>/<id>.def` (local → global
 * id maps). Decoded natively (no OTF2 library): POSIX substrate, uncompressed chunks, either byte
 * order, OTF2 1.x–3.x. Each location (rank × thread) is a track and an execution context;
 * Enter/Leave nest into slices and the call tree (`time` = exclusive ns, `visits`), MPI
 * point-to-point messages become flows matched by communicator, tag and peer (`bytes` = bytes sent,
 * also by collectives), and Metric events become counter series. Other events are counted and skipped.
 */
export const otf2Reader: ProfileReader = {
  ...otf2Sniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    try {
      return await readArchive(path, options);
    } catch (e) {
      // Errors name the archive the user opened, then the member file that failed.
      if (!(e instanceof ProfileReadError) || e.path === path) throw e;
      const base = existsSync(path) && statSync(path).isDirectory() ? path : dirname(path);
      throw new ProfileReadError(path, `${relative(base, e.path)}: ${e.reason}`, { cause: e });
    }
  },
};

/** Reads the archive whose anchor file (or directory) is `path`. */
async function readArchive(path: string, options: ReadOptions): Promise<Profile> {
  const { signal, limits } = options;
  const anchorPath = resolveAnchor(path);
  const archive = join(dirname(anchorPath), basename(anchorPath).replace(/\.otf2$/, ''));
  const anchorBytes = await guard(anchorPath, () => readBytes(anchorPath, { signal, limits, maxBytes: 64 << 20 }));
  const anchor = guardSync(anchorPath, () =>
    parseAnchor(anchorBytes, reason => {
      throw new ProfileReadError(anchorPath, reason);
    }),
  );

  const defPath = `${archive}.def`;
  const defs = new Otf2Definitions();
  await guard(defPath, () => walkFile(defPath, anchor.defChunkSize, false, defs.onRecord, { signal, limits }));
  defs.finish();
  if (defs.locations.length === 0) throw new ProfileReadError(defPath, 'the global definitions define no locations');

  const b = new ProfileBuilder('otf2', path);
  const tb = new TraceBuilder(b.tree.strings);
  const warnings = b.warnings;
  const { resolution, offsetHi, offsetLo, length } = defs.clock;
  if (!(resolution > 0)) warnings.push('the definitions have no ClockProperties; timestamps are taken as nanoseconds');
  else
    tb.originNs = (
      ((BigInt(offsetHi) * 4294967296n + BigInt(offsetLo)) * 1_000_000_000n) /
      BigInt(resolution)
    ).toString();
  Object.assign(b.metadata, {
    'otf2.version': anchor.version.join('.'),
    creator: anchor.creator,
    machine: anchor.machine,
    description: anchor.description,
    'timer resolution (ticks/s)': resolution,
    'trace length (ticks)': length,
    locations: defs.locations.length,
    ...anchor.properties,
  });
  const metrics = {
    time: b.addMetric({
      name: 'time',
      label: 'Time',
      sourceKeys: ['Enter', 'Leave'],
      unit: 'ns',
      kind: 'exclusive',
      aggregation: 'sum',
    }),
    visits: b.addMetric({
      name: 'visits',
      label: 'Visits',
      sourceKeys: ['Enter'],
      unit: 'count',
      kind: 'exclusive',
      aggregation: 'sum',
    }),
    bytes: b.addMetric({
      name: 'bytes',
      label: 'MPI bytes sent',
      sourceKeys: ['MpiSend', 'MpiIsend', 'MpiCollectiveEnd'],
      unit: 'bytes',
      kind: 'exclusive',
      aggregation: 'sum',
    }),
  };
  const timeline = new Otf2Timeline(defs, b, tb, metrics);

  const evtPath = (id: number) => join(archive, `${id}.evt`);
  const sizes = defs.locations.map(l => (existsSync(evtPath(l.id)) ? statSync(evtPath(l.id)).size : 0));
  const total = sizes.reduce((s, n) => s + n, 0) || 1;
  let done = 0,
    missing = 0;
  const threadInGroup = new Map<number, number>();
  for (const [i, loc] of defs.locations.entries()) {
    throwIfAborted(signal);
    const group = defs.locationGroups.get(loc.group);
    const process = group ? defs.str(group.name) || `process ${loc.group}` : `process ${loc.group}`;
    const thread = threadInGroup.get(loc.group) ?? 0;
    threadInGroup.set(loc.group, thread + 1);
    const rank = group?.type === GROUP_PROCESS ? loc.group : -1;
    const name = defs.str(loc.name) || `location ${loc.id}`;
    const kind = loc.type === LOCATION_GPU ? 'gpu-stream' : loc.type === LOCATION_METRIC ? 'counter' : 'thread';
    const context = kind === 'counter' ? -1 : b.newContext({ rank, thread, label: `${process} · ${name}` });
    const track = tb.addTrack({
      name,
      kind,
      process,
      pid: String(loc.group),
      tid: String(loc.id),
      rank,
      thread,
      context,
      sortIndex: i,
    });

    const local = new Otf2LocalDefinitions();
    const localPath = join(archive, `${loc.id}.def`);
    if (existsSync(localPath))
      await guard(localPath, () => walkFile(localPath, anchor.defChunkSize, false, local.onRecord, { signal, limits }));
    const events = evtPath(loc.id);
    if (!existsSync(events)) {
      missing++;
      continue;
    }
    timeline.begin(loc.id, track, context, local);
    const size = sizes[i]!;
    await guard(events, () =>
      walkFile(events, anchor.eventChunkSize, true, timeline.onRecord, {
        signal,
        limits,
        onProgress: f => options.onProgress?.((0.95 * (done + f * size)) / total, 'Reading OTF2 events'),
      }),
    );
    timeline.end();
    done += size;
  }

  if (missing) warnings.push(`${missing} location${missing === 1 ? ' has' : 's have'} no event file`);
  if (timeline.skipped.size)
    warnings.push(`events not shown were skipped: ${Otf2Timeline.skippedSummary(timeline.skipped)}`);
  if (timeline.unmatchedLeaves)
    warnings.push(
      `${timeline.unmatchedLeaves} Leave event${timeline.unmatchedLeaves === 1 ? '' : 's'} without a matching Enter were ignored`,
    );
  if (timeline.unclosed)
    warnings.push(
      `${timeline.unclosed} region${timeline.unclosed === 1 ? ' was' : 's were'} left open and closed at the last event of their location`,
    );
  if (timeline.unresolvedPeers)
    warnings.push(
      `${timeline.unresolvedPeers} MPI message${timeline.unresolvedPeers === 1 ? '' : 's'} name a communicator rank that the definitions do not resolve`,
    );
  const { unmatchedSends, unmatchedRecvs } = timeline.finish();
  if (unmatchedSends || unmatchedRecvs)
    warnings.push(
      `MPI messages without a partner: ${unmatchedSends} send${unmatchedSends === 1 ? '' : 's'}, ${unmatchedRecvs} receive${unmatchedRecvs === 1 ? '' : 's'}`,
    );
  Object.assign(b.metadata, {
    'MPI messages': timeline.messages,
    'MPI collectives': timeline.collectives,
    'metric samples': timeline.metricSamples,
  });

  options.onProgress?.(0.95, 'Building the timeline');
  b.trace = tb.finish();
  const profile = b.build(metrics.time);
  options.onProgress?.(1);
  return profile;
}

function resolveAnchor(path: string): string {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new ProfileReadError(path, (e as Error).message, { cause: e });
  }
  if (!st.isDirectory()) return path;
  const anchors = findAnchors(readdirSync(path));
  if (!anchors.length)
    throw new ProfileReadError(
      path,
      'the directory holds no OTF2 archive (an anchor file *.otf2 with its .def beside it)',
    );
  return join(path, anchors[0]!);
}

/** Runs a step on one archive file, turning a missing file or a format error into a ProfileReadError naming it. */
async function guard<T>(file: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw rethrown(file, e);
  }
}

function guardSync<T>(file: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw rethrown(file, e);
  }
}

function rethrown(file: string, e: unknown): unknown {
  // The input layer names file-system errors itself; a missing member deserves the archive's words.
  const fsError = e instanceof ProfileReadError && isFileSystemError(e.cause) ? e.cause : e;
  if ((fsError as NodeJS.ErrnoException).code === 'ENOENT')
    return new ProfileReadError(file, 'the file is missing from the OTF2 archive', { cause: fsError });
  if (e instanceof ProfileReadError || (e instanceof Error && e.name === 'AbortError')) return e;
  if (e instanceof Otf2FormatError) return new ProfileReadError(file, e.message, { cause: e });
  if (isFileSystemError(e)) return fromFileSystemError(e, file);
  return new ProfileReadError(file, (e as Error).message, { cause: e });
}
