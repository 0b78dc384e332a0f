import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { dataMovementInWindow, dataMovementLanes, flowsInWindow } from './flows-and-copies';
import { buildLaneTree, flattenLanes } from './lanes';
import { computeTiles } from './tiles';
import { TimelineIndex } from './timeline-index';
import { profileForWindow, windowStatistics } from './window-stats';

const PYTORCH = ['data', 'chrome-trace', 'pytorch-profiler-resnet50'];
const OTF2 = ['data', 'scorep-otf2', 'ping-pong-2ranks'];
const HPCTK = ['data', 'hpctoolkit-metadb', 'ping-pong-mpi-with-trace'];

describe('timeline on real traces', () => {
  it(
    'PyTorch/Kineto: CPU threads and the GPU stream as lanes, copies, launch flows',
    { skip: skipUnlessShared(...PYTORCH) },
    async () => {
      const p = await readProfile(sharedPath(...PYTORCH));
      const ix = new TimelineIndex(p);
      const groups = buildLaneTree(p.trace!.tracks);
      const cpu = groups.find(g => g.label === 'python [CPU]')!;
      assert.deepEqual(
        cpu.lanes.map(l => l.label),
        ['thread 25738 (python)', 'thread 25772 (python)'],
      );
      const gpu = groups.find(g => g.label === 'python [GPU 0]')!;
      assert.equal(gpu.groups[0]!.label, 'GPU 0');
      assert.deepEqual(
        gpu.groups[0]!.lanes.map(l => l.label),
        ['stream 7'],
      );
      const stream = gpu.groups[0]!.lanes[0]!.track;
      assert.deepEqual(dataMovementLanes(ix), [stream]);
      const [lo, hi] = p.trace!.timeRange;
      const whole = { start: lo, end: hi + 1 };
      const st = windowStatistics(ix, whole);
      // Every copy lies inside the run, so the apportioned bytes are the table's bytes.
      const total = p.trace!.dataMovement.bytes.reduce((a, b) => a + b, 0);
      const moved = Object.values(st.bytes).reduce((a, b) => a + b.bytes, 0);
      assert.ok(Math.abs(moved - total) < 1e-6 * total);
      assert.equal(flowsInWindow(ix, whole).length, p.trace!.flows.kind.length);
      // Windowed profile of the whole run: time equals the reader's own time metric.
      const wp = profileForWindow(ix, whole);
      const own = p.total(p.metricIndex('time'));
      assert.ok(Math.abs(wp.total(0) - own) <= 1e-9 * own, `${wp.total(0)} vs ${own}`);
      // A zoomed-in window of the CPU thread's busiest part: tiles see operators.
      const t = cpu.lanes[0]!.track;
      const tiles = computeTiles(ix, {
        window: { start: lo + (hi - lo) * 0.4, end: lo + (hi - lo) * 0.41 },
        tracks: [t, stream],
        width: 800,
        depth: 0,
      });
      assert.ok(
        [...tiles.names.values()].some(n => n.startsWith('aten::') || n.startsWith('ProfilerStep')),
        [...tiles.names.values()].join(),
      );
      const half = dataMovementInWindow(ix, { start: lo, end: (lo + hi) / 2 });
      assert.ok(half.rows.length > 0 && half.rows.length < p.trace!.dataMovement.kind.length);
    },
  );

  it(
    'MPI ping-pong: the OTF2 and HPCToolkit trace.db timelines agree',
    { skip: skipUnlessShared(...OTF2) || skipUnlessShared(...HPCTK) },
    async () => {
      const otf2 = new TimelineIndex(await readProfile(sharedPath(...OTF2)));
      const hpc = new TimelineIndex(await readProfile(sharedPath(...HPCTK)));
      const ranks = (ix: TimelineIndex) => ix.trace.tracks.map(t => t.rank);
      assert.deepEqual(ranks(otf2), [0, 1]);
      assert.deepEqual(ranks(hpc), [0, 1]);
      assert.deepEqual(
        flattenLanes(buildLaneTree(otf2.trace.tracks)).map(l => l.track),
        [0, 1],
      );
      // The two files are different runs (Score-P traced the whole program, 5.6 ms of ping-pong after
      // MPI_Init; HPCToolkit sampled a 126 ms ping-pong phase), so absolute times differ. What must
      // agree is the shape of each rank's communication phase (first to last MPI_Send/MPI_Recv on
      // the lane), measured with window statistics: Send and Recv each hold 15–65 % of it, and
      // Send's part of Send + Recv agrees within 0.15 between the formats.
      const phase = (ix: TimelineIndex, rank: number) => {
        const t = ix.trace.tracks.findIndex(k => k.rank === rank);
        const ev = ix.trace.events,
          names = ix.profile.data.strings;
        let a = Infinity,
          b = -Infinity;
        for (let r = ix.trace.trackEventStart[t]!; r < ix.trace.trackEventStart[t + 1]!; r++) {
          if (/^P?MPI_(Send|Recv)\b/.test(names[ev.name[r]!]!)) {
            a = Math.min(a, ev.start[r]!);
            b = Math.max(b, ev.start[r]! + ev.duration[r]!);
          }
        }
        const st = windowStatistics(ix, { start: a, end: b }, [t]);
        // HPCToolkit names the PMPI_* frames under the MPI_* wrappers; inclusive time of either.
        const time = (fn: string) =>
          st.functions
            .filter(f => f.name === fn || f.name.startsWith(`P${fn} `))
            .reduce((m, f) => Math.max(m, f.inclusive), 0);
        return { send: time('MPI_Send') / (b - a), recv: time('MPI_Recv') / (b - a) };
      };
      for (const rank of [0, 1]) {
        const a = phase(otf2, rank),
          b = phase(hpc, rank);
        for (const x of [a.send, a.recv, b.send, b.recv])
          assert.ok(x > 0.15 && x < 0.65, `rank ${rank}: OTF2 ${JSON.stringify(a)} vs trace.db ${JSON.stringify(b)}`);
        const split = (x: { send: number; recv: number }) => x.send / (x.send + x.recv);
        assert.ok(
          Math.abs(split(a) - split(b)) < 0.15,
          `rank ${rank}: Send share of MPI time ${split(a)} (OTF2) vs ${split(b)} (trace.db)`,
        );
      }
    },
  );
});
