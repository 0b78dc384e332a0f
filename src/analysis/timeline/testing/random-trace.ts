import { NodeKind } from '../../model/call-tree';
import type { Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { DataMovementKind, TraceEventKind } from '../../model/trace';
import { TraceBuilder } from '../../model/trace-builder';
import { seededRandom } from '../../stats/seeded-random';

const NAMES = ['solve', 'mpi_wait', 'io', 'kernel', 'pack', 'unpack', 'reduce'];
const MODULES = ['app', 'libmpi.so', 'libc.so'];

/**
 * A small random trace for brute-force tests: `tracks` lanes of properly nested slices (random
 * names, recursion included, random gaps, zero-length slices now and then), one lane of samples
 * (random call paths), a few instants and copies. Integer ns times; deterministic for a seed.
 */
export function randomTraceProfile(seed: number, tracks = 4, slicesPerTrack = 60): Profile {
  const rnd = seededRandom(seed);
  const b = new ProfileBuilder('random-trace', `random:${seed}`);
  const tb = new TraceBuilder(b.tree.strings);
  const nodeOf = new Map<string, number>();
  const node = (parent: number, name: string) => {
    const k = `${parent}/${name}`;
    let n = nodeOf.get(k);
    if (n === undefined) {
      n = b.tree.add(parent, name, NodeKind.Function, {
        module: MODULES[name.length % MODULES.length]!,
        file: name === 'io' ? null : 'app.c',
        line: name.length * 10,
      });
      nodeOf.set(k, n);
    }
    return n;
  };
  const time = b.addMetric({
    name: 'time',
    label: 'Time',
    sourceKeys: [],
    unit: 'ns',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const pick = () => NAMES[Math.floor(rnd() * NAMES.length)]!;
  for (let t = 0; t < tracks; t++) {
    const ctx = b.newContext({ rank: t, thread: 0 });
    const track = tb.addTrack({
      name: `thread 0`,
      kind: t === tracks - 1 ? 'gpu-stream' : 'thread',
      process: `rank ${t}`,
      pid: String(t),
      tid: '0',
      rank: t,
      context: ctx,
    });
    let budget = slicesPerTrack;
    const fill = (s: number, e: number, depth: number, parentNode: number): void => {
      let at = s;
      while (budget > 0 && at < e) {
        at += Math.floor(rnd() * 40);
        const len = rnd() < 0.05 ? 0 : 1 + Math.floor(rnd() * Math.min(400, e - at));
        if (at + len > e || (len === 0 && at >= e)) break;
        const name = pick();
        const n = node(parentNode, name);
        budget--;
        tb.addSlice(track, at, len, n, depth, 'cpu', name);
        b.addExclusive(time, n, ctx, len);
        if (parentNode >= 0) b.addExclusive(time, parentNode, ctx, -len);
        if (depth < 4 && len > 20 && rnd() < 0.7) fill(at, at + len, depth + 1, n);
        at += len;
      }
    };
    fill(0, 10_000, 0, -1);
    if (rnd() < 0.5) tb.addEvent(TraceEventKind.Instant, track, Math.floor(rnd() * 10_000), 0, -1, 0, 'mark', 'marker');
    if (t === tracks - 1) {
      for (let k = 0; k < 5; k++) {
        const s = Math.floor(rnd() * 9_000),
          d = Math.floor(rnd() * 500);
        tb.addDataMovement({
          kind: k % 2 ? DataMovementKind.DeviceToHost : DataMovementKind.HostToDevice,
          bytes: 1000 * (k + 1),
          srcDevice: -1,
          dstDevice: 0,
          start: s,
          duration: k === 4 ? 0 : d,
          track,
          event: -1,
          node: node(-1, 'copy'),
          sourceNode: -1,
        });
      }
    }
  }
  // A lane of samples only: random paths, one sample every 50 ± 10 ns.
  const ctx = b.newContext({ rank: tracks, thread: 0 });
  const st = tb.addTrack({
    name: 'sampled',
    kind: 'thread',
    process: `rank ${tracks}`,
    pid: String(tracks),
    tid: '0',
    rank: tracks,
    context: ctx,
  });
  for (let at = 100; at < 9_000; at += 40 + Math.floor(rnd() * 20)) {
    if (rnd() < 0.1) at += 500; // a pause: the hold must not bridge it
    let n = -1,
      leaf = '';
    const depth = Math.floor(rnd() * 4);
    for (let d = 0; d <= depth; d++) n = node(n, (leaf = pick()));
    tb.addEvent(TraceEventKind.Sample, st, at, 0, n, depth, 'sample', leaf);
  }
  b.trace = tb.finish();
  return b.build(time);
}
