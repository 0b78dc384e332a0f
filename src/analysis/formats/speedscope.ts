import type { Profile } from '../model/profile';
import { JsonSyntaxError, tokenizeJsonFile } from './json/json-tokenizer';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions } from './reader';
import { SampledProfile, type WeightMetric } from './sampled-stacks/sampled-profile';
import { SpeedscopeDocument, type SpeedscopeProfile } from './speedscope/document';
import { speedscopeSniffer } from './sniffers/speedscope';

/** Nanoseconds per unit of speedscope's time units. */
const NS_PER_UNIT: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

/** The weight metric a profile's unit stands for (time in ns, bytes, or plain weights). */
function weightFor(unit: string): WeightMetric {
  if (NS_PER_UNIT[unit] !== undefined)
    return { name: 'time', label: 'Time', unit: 'ns', sourceKeys: ['weights', 'events'] };
  if (unit === 'bytes') return { name: 'bytes', label: 'Bytes', unit: 'bytes', sourceKeys: ['weights', 'events'] };
  return { name: 'weight', label: 'Weight', unit: '', sourceKeys: ['weights', 'events'] };
}

/**
 * speedscope's file format (every spec version, 0.0.1 … 0.7.x): `shared.frames` ({name, file?, line?,
 * col?}) and `profiles`, each `sampled` (root-first stacks of frame indices with weights) or
 * `evented` (`O`/`C` open/close events of frames at times). Read with the streaming tokenizer.
 *
 * Each profile (typically a thread) is an execution context and a track. Evented profiles become
 * slices on their track; sampled profiles with a time unit become Sample events laid end to end
 * from `startValue` (speedscope's own time order). Metrics: `samples` (sampled profiles) and the
 * weight in the profile's unit: `time` (ns), `bytes`, or `weight` for unit `none`, exclusive at the
 * leaf (for evented profiles: the time each frame was the innermost open one). Unbalanced or
 * out-of-order events are errors, as in speedscope itself.
 */
export const speedscopeReader: ProfileReader = {
  ...speedscopeSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const fail = (reason: string): never => {
      throw new ProfileReadError(path, reason);
    };
    const doc = new SpeedscopeDocument(fail);
    try {
      await tokenizeJsonFile(path, doc, {
        signal: options.signal,
        limits: options.limits,
        onProgress: (read, total) => options.onProgress?.(total > 0 ? 0.8 * (read / total) : 0, 'Reading the profile'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      const message = (e as Error).message;
      const reason =
        e instanceof JsonSyntaxError
          ? `not valid JSON (${message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message})`
          : message;
      throw new ProfileReadError(path, reason, { cause: e });
    }
    if (!doc.sawProfiles) fail('not a speedscope file: no "profiles" array');
    if (doc.profiles.length === 0) fail('the file holds no profiles');
    options.onProgress?.(0.8, 'Building the call tree');

    const sp = new SampledProfile('speedscope', path);
    const b = sp.builder;
    Object.assign(b.metadata, doc.metadata);
    const frameIds = Int32Array.from(doc.frames, f => sp.stacks.frame(f.name, { file: f.file, line: f.line }));
    const timeline = doc.profiles.some(p => p.type === 'evented' || NS_PER_UNIT[p.unit] !== undefined);
    const fileName = typeof doc.metadata['name'] === 'string' ? doc.metadata['name'] : '';
    doc.profiles.forEach((p, i) => {
      const where = `profile ${i}${p.name ? ` ("${p.name}")` : ''}`;
      if (p.type !== 'sampled' && p.type !== 'evented')
        fail(`${where} has type ${JSON.stringify(p.type)}; expected "sampled" or "evented"`);
      if (!(p.unit in NS_PER_UNIT) && p.unit !== 'bytes' && p.unit !== 'none')
        b.warnings.push(`${where} has unknown unit ${JSON.stringify(p.unit)}; its values are shown unscaled`);
      const label = p.name || `profile ${i}`;
      const context = b.newContext({ label });
      const track = timeline
        ? sp.trace.addTrack({
            name: label,
            kind: 'thread',
            process: fileName || 'speedscope',
            pid: '',
            tid: String(i),
            context,
          })
        : -1;
      if (p.type === 'sampled') addSampled(sp, p, frameIds, context, track, where, fail);
      else addEvented(sp, p, frameIds, context, track, where, fail);
    });
    if (timeline && doc.profiles.some(p => p.type === 'evented' && NS_PER_UNIT[p.unit] === undefined)) {
      b.metadata['traceTimeUnit'] = "the profiles' own unit (not nanoseconds)";
    }
    options.onProgress?.(1);
    return sp.finish();
  },
};

function addSampled(
  sp: SampledProfile,
  p: SpeedscopeProfile,
  frameIds: Int32Array,
  context: number,
  track: number,
  where: string,
  fail: (r: string) => never,
): void {
  const n = p.stackEnds.length;
  const haveWeights = p.weights.length > 0;
  if (haveWeights && p.weights.length !== n) fail(`${where} has ${n} samples but ${p.weights.length} weights`);
  if (!haveWeights && n > 0) sp.builder.warnings.push(`${where} has no weights; each sample weighs 1`);
  const metric = sp.weightMetric(weightFor(p.unit));
  const scale = NS_PER_UNIT[p.unit] ?? 1;
  const timed = track >= 0 && NS_PER_UNIT[p.unit] !== undefined;
  let stack = new Int32Array(64);
  let at = p.startValue;
  let empty = 0;
  for (let k = 0, from = 0; k < n; k++) {
    const to = p.stackEnds.get(k);
    const w = haveWeights ? p.weights.get(k) : 1;
    if (to - from > stack.length) stack = new Int32Array(2 * (to - from));
    for (let j = from; j < to; j++) {
      const f = p.stackFrames.get(j);
      if (f >= frameIds.length)
        fail(`${where}: sample ${k} refers to frame ${f}, but shared.frames has ${frameIds.length}`);
      stack[j - from] = frameIds[f]!;
    }
    if (to === from) empty++;
    else {
      const leaf = sp.stacks.path(stack, to - from, true);
      sp.addSample(leaf, context, 1, metric, w * scale);
      if (timed) sp.addTimedSample(track, Math.round(at * scale), leaf, '');
    }
    at += w;
    from = to;
  }
  if (empty) sp.builder.warnings.push(`${where}: ${empty} empty stack${empty === 1 ? '' : 's'} (no frames) not shown`);
}

function addEvented(
  sp: SampledProfile,
  p: SpeedscopeProfile,
  frameIds: Int32Array,
  context: number,
  track: number,
  where: string,
  fail: (r: string) => never,
): void {
  const metric = sp.weightMetric(weightFor(p.unit));
  const scale = NS_PER_UNIT[p.unit] ?? 1;
  const b = sp.builder;
  // The open frames: node, frame index and open time.
  const nodes: number[] = [],
    frames: number[] = [],
    opened: number[] = [];
  let last = -Infinity;
  for (let k = 0; k < p.eventAt.length; k++) {
    const at = p.eventAt.get(k);
    const f = p.eventFrame.get(k);
    if (at < last) fail(`${where}: event ${k} at ${at} comes after an event at ${last} (events must be in time order)`);
    if (f >= frameIds.length)
      fail(`${where}: event ${k} refers to frame ${f}, but shared.frames has ${frameIds.length}`);
    if (nodes.length) b.addExclusive(metric, nodes[nodes.length - 1]!, context, (at - last) * scale);
    last = at;
    if (p.eventOpen.get(k)) {
      nodes.push(sp.stacks.child(nodes.length ? nodes[nodes.length - 1]! : -1, frameIds[f]!));
      frames.push(f);
      opened.push(at);
      continue;
    }
    if (!frames.length || frames[frames.length - 1] !== f) {
      const open = frames.length ? `frame ${frames[frames.length - 1]} is the innermost open one` : 'no frame is open';
      fail(`${where}: event ${k} closes frame ${f} at ${at}, but ${open}`);
    }
    const node = nodes.pop()!;
    frames.pop();
    const start = opened.pop()!;
    const name = sp.stacks.frameName(sp.stacks.frameOf(node));
    sp.trace.addSlice(
      track,
      Math.round(start * scale),
      Math.round(at * scale) - Math.round(start * scale),
      node,
      nodes.length,
      '',
      name,
    );
  }
  if (frames.length)
    fail(
      `${where}: ${frames.length} frame${frames.length === 1 ? ' is' : 's are'} still open at the end (an incomplete profile)`,
    );
}
