import { Profile as PprofProfile } from 'pprof-format';
import type { MetricDescriptor } from '../model/metric';
import { normaliseUnit } from '../model/metric';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { readBytes } from './io/file-input';
import { SampleTreeBuilder } from './pprof/sample-tree';
import { buildTables, num, PprofDataError, stringAt } from './pprof/tables';
import { checkFraming, WireError } from './pprof/wire';
import { ProfileReadError, throwIfAborted, type ProfileReader, type ReadOptions } from './reader';
import { pprofSniffer } from './sniffers/pprof';

/**
 * pprof (`profile.proto`, as written by Go's runtime/pprof, pprof-rs, gperftools' converters,
 * py-spy, Datadog's profilers …), gzip-compressed or raw. The whole (gunzipped) message is decoded
 * with `pprof-format` after a framing check (pprof/wire.ts) that catches truncated and damaged files.
 *
 * Each sample type (`cpu/nanoseconds`, `samples/count`, `alloc_space/bytes`, …) is an exclusive
 * metric; `default_sample_type`, else the last type (pprof's own default), is the primary one.
 * Samples' stacks become the call tree (pprof/sample-tree.ts), thread and process labels the
 * contexts. There are no per-sample timestamps, so a pprof profile has no timeline.
 */

/** A name for each sample type, unique within the profile (`cpu`, or `cpu (nanoseconds)` on a clash). */
function metricDescriptors(types: { type: string; unit: string }[]): MetricDescriptor[] {
  const count = new Map<string, number>();
  for (const t of types) count.set(t.type, (count.get(t.type) ?? 0) + 1);
  const used = new Set<string>();
  return types.map(({ type, unit }, k) => {
    let name = type || `value ${k + 1}`;
    if ((count.get(type) ?? 0) > 1 || used.has(name)) name = `${name} (${unit || k + 1})`;
    while (used.has(name)) name += "'";
    used.add(name);
    const u = unit === 'count' ? (type === 'samples' ? 'samples' : 'count') : normaliseUnit(unit);
    return { name, label: name, sourceKeys: [`${type}/${unit}`], unit: u, kind: 'exclusive', aggregation: 'sum' };
  });
}

function metadataOf(p: PprofProfile, strings: readonly string[]): Record<string, MetadataValue> {
  const s = (v: number | bigint, what: string) => stringAt(strings, v, what);
  const md: Record<string, MetadataValue> = {};
  const time = num(p.timeNanos);
  if (time) {
    md['pprof.timeNanos'] = String(BigInt.asIntN(64, BigInt(p.timeNanos)));
    const start = new Date(time / 1e6);
    if (Number.isFinite(start.getTime())) md['pprof.startTime'] = start.toISOString();
  }
  if (num(p.durationNanos)) md['pprof.durationNanos'] = num(p.durationNanos);
  if (p.periodType)
    md['pprof.periodType'] = `${s(p.periodType.type, 'period_type')}/${s(p.periodType.unit, 'period_type')}`;
  if (num(p.period)) md['pprof.period'] = num(p.period);
  if (p.comment.length) md['pprof.comments'] = p.comment.map(c => s(c, 'a comment'));
  if (num(p.dropFrames)) md['pprof.dropFrames'] = s(p.dropFrames, 'drop_frames');
  if (num(p.keepFrames)) md['pprof.keepFrames'] = s(p.keepFrames, 'keep_frames');
  if (num(p.docUrl)) md['pprof.docUrl'] = s(p.docUrl, 'doc_url');
  md['pprof.sampleTypes'] = p.sampleType.map(t => `${s(t.type, 'a sample type')}/${s(t.unit, 'a sample type')}`);
  md['pprof.samples'] = p.sample.length;
  md['pprof.locations'] = p.location.length;
  md['pprof.functions'] = p.function.length;
  md['pprof.mappings'] = p.mapping.length;
  const main = p.mapping[0];
  if (main && num(main.filename)) md['pprof.mainBinary'] = s(main.filename, 'mapping 1');
  if (main && num(main.buildId)) md['pprof.buildId'] = s(main.buildId, 'mapping 1');
  return md;
}

export const pprofReader: ProfileReader = {
  ...pprofSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const bytes = await readBytes(path, {
      signal: options.signal,
      limits: options.limits,
      onProgress: f => options.onProgress?.(0.3 * f, 'Reading the pprof profile'),
    });
    if (bytes.length === 0)
      throw new ProfileReadError(path, 'the file is empty (a pprof profile is a protobuf message)');
    try {
      checkFraming(bytes, 0, bytes.length);
    } catch (e) {
      if (e instanceof WireError)
        throw new ProfileReadError(path, `not a valid pprof protobuf: ${e.message}`, { cause: e });
      throw e;
    }
    throwIfAborted(options.signal);
    options.onProgress?.(0.3, 'Decoding the pprof profile');
    let p: PprofProfile;
    try {
      p = PprofProfile.decode(bytes);
    } catch (e) {
      throw new ProfileReadError(path, `not a valid pprof protobuf: ${(e as Error).message}`, { cause: e });
    }
    throwIfAborted(options.signal);
    options.onProgress?.(0.5, 'Building the call tree');
    const b = new ProfileBuilder('pprof', path);
    try {
      const tables = buildTables(p);
      const s = (v: number | bigint, what: string) => stringAt(tables.strings, v, what);
      const types = p.sampleType.map((t, k) => ({
        type: s(t.type, `sample type ${k + 1}`),
        unit: s(t.unit, `sample type ${k + 1}'s unit`),
      }));
      if (types.length === 0 && p.sample.length)
        throw new PprofDataError('the profile has samples but no sample types');
      const ids = metricDescriptors(types).map(d => b.addMetric(d));
      new SampleTreeBuilder(b, tables, ids).addAll(p, options.signal, f =>
        options.onProgress?.(0.5 + 0.5 * f, 'Building the call tree'),
      );
      Object.assign(b.metadata, metadataOf(p, tables.strings));
      const wanted = num(p.defaultSampleType) ? s(p.defaultSampleType, 'default_sample_type') : '';
      const byDefault = types.findIndex(t => t.type === wanted);
      if (wanted && byDefault < 0)
        b.warnings.push(`default_sample_type "${wanted}" is none of the sample types; the last one is primary`);
      options.onProgress?.(1);
      return b.build(byDefault >= 0 ? byDefault : Math.max(0, ids.length - 1));
    } catch (e) {
      if (e instanceof PprofDataError) throw new ProfileReadError(path, e.message, { cause: e });
      throw e;
    }
  },
};
