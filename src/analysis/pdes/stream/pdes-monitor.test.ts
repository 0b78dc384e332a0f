import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPdesRun } from '../../formats/ross/pdes-run-reader';
import { RossRecordError } from '../../formats/ross/record-decoder';
import { intervalMatrices, tickEdges } from '../model/communication';
import { seededRandom } from '../../stats/seeded-random';
import { generateRossRun, type RossRunParameters, type RossRunTruth } from '../testing/ross-generator';
import { PdesMonitor, type PdesMonitorInit } from './pdes-monitor';
import type { PdesTickUpdate } from './stream-analyser';
import { readStreamLayout } from './stream-layout';
import {
  behaviourWindow,
  causalityTable,
  changePointEntities,
  communicationView,
  diffMatrices,
  lassoSelect,
  liveMatrix,
  processedBadge,
  summarySeries,
} from './stream-views';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function run(params: RossRunParameters): RossRunTruth {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-'));
  dirs.push(dir);
  return generateRossRun(dir, params);
}

/** Pushes `bytes` in chunks whose sizes `size()` draws; returns the updates and how many chunks ended inside a header. */
function pushChunks(
  monitor: PdesMonitor,
  bytes: Uint8Array,
  size: () => number,
): { updates: PdesTickUpdate[]; headerSplits: number } {
  const updates: PdesTickUpdate[] = [];
  let headerSplits = 0;
  for (let at = 0; at < bytes.length;) {
    const n = Math.max(1, size());
    updates.push(...monitor.pushStats(bytes.subarray(at, Math.min(bytes.length, at + n))));
    at += n;
    const pending = monitor.cache.statsBytes.pending;
    if (pending > 0 && pending < 24) headerSplits++;
  }
  return { updates, headerSplits };
}

function monitorOf(truth: RossRunTruth, init: Partial<PdesMonitorInit> = {}): PdesMonitor {
  return new PdesMonitor({ mode: 'gvt', path: truth.files.gvt, expectedPes: truth.parameters.pes, ...init });
}

/** Bytes of one GVT round of the generator: per PE a PE record (128 B) and its KP records (68 B each). */
const roundBytes = (pes: number, kps: number) => pes * (128 + kps * 68);

describe('live monitor on a seeded ROSS-like run', () => {
  let truth: RossRunTruth;
  let bytes: Uint8Array;
  before(() => {
    truth = run({ seed: 7, eventsPerKp: 8, eventTrace: false });
    bytes = readFileSync(truth.files.gvt);
  });

  it('takes chunks of any size (headers split) and ends at the planted totals, one update per tick in order', () => {
    const rand = seededRandom(3);
    const monitor = monitorOf(truth, { settings: { skipStaleTicks: false } });
    const { updates, headerSplits } = pushChunks(monitor, bytes, () => 1 + Math.floor(rand() * 400));
    assert.ok(headerSplits > 50, `${headerSplits} chunks ended inside a record header`);
    updates.push(...monitor.finish());
    assert.deepEqual(
      updates.map(u => u.tick),
      Array.from({ length: 100 }, (_, i) => i),
    );
    const last = updates.at(-1)!;
    assert.deepEqual(last.totals, {
      eventsProcessed: truth.totals.events,
      rollbacks: truth.totals.rollbacks,
      primaryRollbacks: truth.totals.primaryRollbacks,
      secondaryRollbacks: truth.totals.secondaryRollbacks,
    });
    assert.ok(updates.every(u => u.entities === 256 && u.level === 'kp' && u.analysed));
    assert.deepEqual(
      updates.slice(0, 3).map(u => u.time),
      [100, 200, 300],
    );
    assert.equal(monitor.cache.statsBytes.pending, 0);
    assert.equal(monitor.cache.lateRecords, 0);
  });

  it('completes a tick once every PE has reported a later one; a partial record waits for its rest', () => {
    const monitor = monitorOf(truth);
    const round = roundBytes(16, 16);
    monitor.pushStats(bytes.subarray(0, 3 * round));
    assert.equal(monitor.cache.completeTicks, 2, 'round 3 is not complete until the PEs move on');
    // Half a header of round 4: held back, nothing completes.
    monitor.pushStats(bytes.subarray(3 * round, 3 * round + 10));
    assert.deepEqual(monitor.cache.statsBytes, { decoded: 3 * round, pending: 10 });
    // PEs 0–14 start round 4: PE 15 still holds round 3 open.
    monitor.pushStats(bytes.subarray(3 * round + 10, 3 * round + 15 * (128 + 16 * 68)));
    assert.equal(monitor.cache.completeTicks, 2);
    monitor.pushStats(bytes.subarray(3 * round + 15 * (128 + 16 * 68), 3 * round + 15 * (128 + 16 * 68) + 128));
    assert.equal(monitor.cache.completeTicks, 3);
    assert.equal(monitor.ticks, 3);
  });

  it('backlog: stale ticks are skipped and counted, the raw data kept; change points see every tick', () => {
    const monitor = monitorOf(truth);
    const updates = monitor.pushStats(bytes);
    assert.equal(updates.length, 99);
    assert.deepEqual(
      updates.filter(u => u.analysed).map(u => u.tick),
      [98],
    );
    assert.equal(updates.at(-1)!.skippedTicks, 98);
    assert.ok(
      updates.slice(1).every(u => u.cpd !== null),
      'every tick fed the change detector',
    );
    const [last] = monitor.finish();
    assert.equal(last!.tick, 99);
    assert.ok(last!.analysed);
    assert.equal(monitor.cache.samples.tickCount, 100);
    assert.equal(last!.totals.eventsProcessed, truth.totals.events);
  });

  it('finds the first planted rollback burst and selects their top PC1-loading KPs for Show', () => {
    const monitor = monitorOf(truth, { settings: { skipStaleTicks: false } });
    pushChunks(monitor, bytes, () => roundBytes(16, 16));
    monitor.finish();
    const found = monitor.analyser.changePoints.map(c => c.tick);
    // Both edges of the first burst; a detection's burn-in can swallow a later edge (thesis §6.3.1).
    for (const planted of [30, 45])
      assert.ok(
        found.some(t => t >= planted && t <= planted + 5),
        `burst edge ${planted} found within 5 ticks (found ${found})`,
      );
    const first = changePointEntities(monitor, 1)!;
    assert.equal(first.changePoint.number, 1);
    assert.equal(first.entities.length, 10);
    // The oscillating group has the highest rollbacks and jumps most in a burst.
    assert.ok(first.entities.filter(k => truth.kpGroup[k] === 2).length >= 8, `${first.labels}`);
    assert.match(first.labels[0]!, /^PE \d+ · KP \d+$/);
    // Summary and behaviour views carry the numbered markers.
    const summary = summarySeries(monitor, 'top');
    assert.equal(summary.mean.length, 100);
    assert.deepEqual(
      summary.changePoints.map(c => c.number),
      found.map((_, i) => i + 1),
    );
    const window = behaviourWindow(monitor, 'top', 40);
    assert.deepEqual([window.fromTick, window.toTick, window.time.length], [60, 100, 40]);
    assert.equal(window.values.length, 256 * 40);
    assert.deepEqual(
      window.changePoints.map(c => c.tick),
      found.filter(t => t >= 60),
    );
    // Mean of the summary equals the mean of the window's column.
    let s = 0;
    for (let e = 0; e < 256; e++) s += window.values[e * 40 + 39]!;
    assert.ok(Math.abs(s / 256 - summary.mean[99]!) < 1e-9);
  });

  it('stops at a bad record, naming the file and the byte offset', () => {
    const broken = Uint8Array.from(bytes.subarray(0, 5 * 68 + 128));
    new DataView(broken.buffer).setInt32(128 + 2 * 68, 9, true); // the third KP record's flag
    const monitor = monitorOf(truth);
    assert.throws(
      () => monitor.pushStats(broken),
      (e: Error) =>
        e instanceof RossRecordError &&
        e.offset === 128 + 2 * 68 &&
        e.message.startsWith(truth.files.gvt) &&
        /byte offset 264/.test(e.message),
    );
  });

  it('keeps the ticks completed before a bad record for collect()', () => {
    const round = roundBytes(16, 16);
    const broken = Uint8Array.from(bytes.subarray(0, 3 * round + 200));
    new DataView(broken.buffer).setInt32(3 * round, 77, true);
    const monitor = monitorOf(truth);
    assert.throws(() => monitor.pushStats(broken), /at byte offset 58368/);
    // Three rounds are read and the fourth's first record is bad: ticks 0 and 1 are complete, tick 2
    // still waits for the PEs to move past it.
    assert.deepEqual(
      monitor.collect().map(u => u.tick),
      [0, 1],
    );
  });

  it('waits for the expected PEs', () => {
    const monitor = monitorOf(truth, { expectedPes: 17 });
    monitor.pushStats(bytes.subarray(0, 10 * roundBytes(16, 16)));
    assert.equal(monitor.cache.completeTicks, 0);
    assert.equal(monitor.finish().length, 10);
  });
});

describe('one entity', () => {
  it('runs change points on the raw series and skips PCA and clustering with the reason', () => {
    const truth = run({ seed: 2, pes: 1, kpsPerPe: 1, lps: 4, ticks: 30, groups: 1, surge: null, eventTrace: false });
    const monitor = monitorOf(truth, { settings: { skipStaleTicks: false } });
    const updates = [...monitor.pushStats(readFileSync(truth.files.gvt)), ...monitor.finish()];
    assert.equal(updates.length, 30);
    for (const u of updates) {
      assert.equal(u.entities, 1);
      assert.equal(u.analysed, false);
      assert.equal(u.clustering, null);
      assert.equal(u.projections.top, null);
      assert.match(u.skipped.join(' '), /one entity: PCA and clustering skipped/);
      assert.equal(u.cpd!.value, u.columns.top[0]);
    }
    assert.equal(updates.at(-1)!.skippedTicks, 0, 'not stale, just impossible');
  });
});

describe('seed acceptance: communication, outliers and stability (thesis §6.5)', () => {
  let truth: RossRunTruth;
  let monitor: PdesMonitor;
  before(async () => {
    truth = run({ seed: 7, eventsPerKp: 8, outliers: 4, selfCommunicationPe: 0 });
    const layout = await readStreamLayout(truth.files.gvt);
    assert.equal(layout.tracePath, truth.files.evtrace);
    assert.equal(layout.expectedPes, 16);
    monitor = new PdesMonitor({
      mode: 'gvt',
      path: truth.files.gvt,
      tracePath: layout.tracePath!,
      entities: layout.entities!,
      expectedPes: layout.expectedPes,
      // Unlimited budgets: these tests are about what the views show, not about latency.
      settings: { skipStaleTicks: false, projection: { budgetMs: Infinity }, clustering: { budgetMs: Infinity } },
    });
    // Trace and stats arrive interleaved, as two growing files would.
    const stats = readFileSync(truth.files.gvt),
      trace = readFileSync(truth.files.evtrace!);
    for (let i = 0; i < 40; i++) {
      monitor.pushTrace(trace.subarray(Math.floor((i * trace.length) / 40), Math.floor(((i + 1) * trace.length) / 40)));
      monitor.pushStats(stats.subarray(Math.floor((i * stats.length) / 40), Math.floor(((i + 1) * stats.length) / 40)));
    }
    monitor.finish();
  });

  it('a diagonal block in PE 0: its PE cell is the darkest, the drill-down a dominant 16 × 16 diagonal', () => {
    assert.equal(monitor.cache.commLevel, 'kp');
    const live = liveMatrix(monitor)!;
    assert.equal(live.size, 16);
    assert.deepEqual(live.labels.slice(0, 2), ['PE 0', 'PE 1']);
    const darkest = live.values.indexOf(live.max);
    assert.equal(darkest, 0, 'cell (0, 0)');
    const drill = communicationView(monitor, [monitor.ticks - 1], { drill: { rowPe: 0, colPe: 0 } })!;
    assert.deepEqual([drill.size, drill.columns], [16, 16]);
    let diagonal = 0,
      total = 0;
    for (let i = 0; i < 16; i++)
      for (let j = 0; j < 16; j++) {
        const v = drill.values[i * 16 + j]!;
        total += v;
        if (i === j) diagonal += v;
        else assert.ok(v < drill.values[i * 16 + i]!, `row ${i}: the diagonal dominates column ${j}`);
      }
    assert.ok(diagonal > 0.8 * total, `${diagonal} of ${total} on the diagonal`);
    // Cluster strips match the labels: KP rows carry their own, PE rows their KPs' majority.
    const labels = monitor.analyser.clustering!.labels;
    assert.deepEqual([...drill.strip], [...drill.entities.map(k => labels[k]!)]);
    const peOfGroup = [...live.strip];
    assert.deepEqual(
      peOfGroup,
      [...truth.peGroup].map(g => peOfGroup[truth.peGroup.indexOf(g)]),
    );
    // Every traced event is in the whole run's matrix.
    const whole = communicationView(monitor, 'all', { granularity: 'kp' })!;
    assert.equal(whole.events, truth.totals.events);
    assert.equal(monitor.cache.pendingEvents, 0);
  });

  it('bins every event into the tick the offline reader puts it in, whatever arrives first', async () => {
    const run = await readPdesRun(join(truth.files.rossCsv, '..'));
    const offline = intervalMatrices(
      run.eventTrace!,
      run.entities,
      'kp',
      tickEdges(run.samples.gvt!.ticks.virtualTime),
    );
    const layout = await readStreamLayout(truth.files.gvt);
    const early = new PdesMonitor({
      mode: 'gvt',
      path: truth.files.gvt,
      entities: layout.entities!,
      expectedPes: 16,
      settings: { projection: { budgetMs: 0 }, clustering: { budgetMs: 0 }, causality: { budgetMs: 0 } },
    });
    // The whole trace before any sample: every event waits, then leaves as its tick completes.
    early.pushTrace(readFileSync(truth.files.evtrace!));
    assert.equal(early.cache.pendingEvents, truth.totals.events);
    const stats = readFileSync(truth.files.gvt);
    for (let at = 0; at < stats.length; at += 7777) early.pushStats(stats.subarray(at, at + 7777));
    early.finish();
    for (const t of [0, 31, 99]) {
      const live = communicationView(early, [t], { granularity: 'kp', weight: 'sends' })!;
      assert.deepEqual([...live.values], [...offline[t]!.counts], `tick ${t}`);
    }
    assert.equal(early.cache.lateEvents, 0);
  });

  it('base and diff matrices: the change point minus the base tick, cell by cell', () => {
    const cps = monitor.analyser.changePoints;
    assert.ok(cps.length >= 2);
    const diffs = diffMatrices(monitor, 5);
    assert.deepEqual(
      diffs.map(d => d.changePoint),
      cps.map(c => c.number),
    );
    const base = communicationView(monitor, [5])!;
    const at = communicationView(monitor, [cps[0]!.tick])!;
    diffs[0]!.values.forEach((v, i) => assert.equal(v, at.values[i]! - base.values[i]!));
    // During a burst PEs 7 and 8 exchange far more events than at the base tick.
    const burst = diffs.find(d => d.tick >= 30 && d.tick < 45);
    if (burst) assert.ok(burst.values[7 * 16 + 8]! > 0);
  });

  it('four distinct-send outlier KPs lie ≥ 3 median NN distances from their cluster; a lasso selects exactly them', () => {
    const p = monitor.analyser.projections.bottom!;
    assert.equal(p.metric, 'network_sends');
    assert.equal(processedBadge(p), '256/256 entities');
    const labels = monitor.analyser.clustering!.labels;
    const xy = (i: number) => [p.coordinates[2 * i]!, p.coordinates[2 * i + 1]!] as const;
    const nn = Array.from({ length: 256 }, (_, i) => {
      let best = Infinity;
      for (let j = 0; j < 256; j++)
        if (j !== i) best = Math.min(best, Math.hypot(xy(i)[0] - xy(j)[0], xy(i)[1] - xy(j)[1]));
      return best;
    }).sort((a, b) => a - b);
    const median = nn[128]!;
    for (const k of truth.outlierKps) {
      const members = [...labels.keys()].filter(i => labels[i] === labels[k]);
      const cx = members.reduce((s, i) => s + xy(i)[0], 0) / members.length;
      const cy = members.reduce((s, i) => s + xy(i)[1], 0) / members.length;
      const d = Math.hypot(xy(k)[0] - cx, xy(k)[1] - cy);
      assert.ok(d >= 3 * median, `KP ${k}: ${d} vs 3 × ${median}`);
    }
    // A lasso: the outliers' bounding box grown by a quarter of its size (or a median NN distance).
    const xs = truth.outlierKps.map(k => xy(k)[0]),
      ys = truth.outlierKps.map(k => xy(k)[1]);
    const padX = Math.max(median, 0.25 * (Math.max(...xs) - Math.min(...xs)));
    const padY = Math.max(median, 0.25 * (Math.max(...ys) - Math.min(...ys)));
    const [x0, x1, y0, y1] = [
      Math.min(...xs) - padX,
      Math.max(...xs) + padX,
      Math.min(...ys) - padY,
      Math.max(...ys) + padY,
    ];
    const selected = lassoSelect(p, [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ]);
    assert.deepEqual(selected, truth.outlierKps);
  });

  it('causality table rows for every other metric, sortable by IR and VD', () => {
    const rows = causalityTable(monitor, 'from', 'impulse');
    assert.equal(monitor.analyser.causality!.target, 'secondary_rollbacks');
    assert.deepEqual(rows.map(r => r.metric).sort(), [
      'events_processed',
      'events_rolled_back',
      'network_recvs',
      'network_sends',
      'primary_rollbacks',
      'total_rollbacks',
    ]);
    for (let i = 1; i < rows.length; i++) assert.ok(Math.abs(rows[i - 1]!.impulse) >= Math.abs(rows[i]!.impulse));
    const byShare = causalityTable(monitor, 'to', 'varianceShare');
    for (let i = 1; i < byShare.length; i++) assert.ok(byShare[i - 1]!.varianceShare >= byShare[i]!.varianceShare);
    assert.ok(rows.every(r => r.flagged === r.pValue < 0.05 && r.label.length > 0));
  });
});

describe('seed acceptance: stability at 256 entities, 50 ms', () => {
  it('< 5 % colour changes per tick, layouts that stay put, reflections undone, an injected rotation followed', () => {
    // A stationary stream: no bursts, no surge.
    const truth = run({ seed: 11, bursts: [], surge: null, eventTrace: false, ticks: 80 });
    const monitor = monitorOf(truth, { settings: { skipStaleTicks: false, clustering: { budgetMs: 50 } } });
    const bytes = readFileSync(truth.files.gvt);
    const round = roundBytes(16, 16);
    let worstChange = 0,
      worstMove = 0,
      reflections = 0;
    let previous: Float64Array | null = null;
    for (let t = 0; t < 80; t++) {
      if (t === 60) {
        // Rotate the previous layout by 90°: the next layout must follow it, not snap back.
        const p = monitor.analyser.projections.top!;
        const c = p.coordinates;
        for (let i = 0; i < c.length; i += 2) [c[i], c[i + 1]] = [-c[i + 1]!, c[i]!];
        previous = c.slice();
      }
      for (const u of monitor.pushStats(bytes.subarray(t * round, (t + 1) * round))) {
        const p = u.projections.top!;
        if (p.reflected) reflections++;
        if (u.tick >= 20) {
          worstChange = Math.max(worstChange, u.clustering!.changed / 256);
          assert.ok(p.aligned);
          worstMove = Math.max(worstMove, meanMove(previous!, p.coordinates) / diameter(p.coordinates));
        }
        previous = p.coordinates.slice();
      }
    }
    assert.ok(worstChange < 0.05, `${(100 * worstChange).toFixed(1)} % of entities changed colour`);
    assert.ok(worstMove < 0.1, `points moved ${(100 * worstMove).toFixed(1)} % of the layout's diameter`);
    assert.ok(reflections > 0, 'fresh PCAs came out reflected and were flipped back');
  });
});

function meanMove(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 2) s += Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!);
  return s / (a.length / 2);
}

function diameter(c: Float64Array): number {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (let i = 0; i < c.length; i += 2) {
    x0 = Math.min(x0, c[i]!);
    x1 = Math.max(x1, c[i]!);
    y0 = Math.min(y0, c[i + 1]!);
    y1 = Math.max(y1, c[i + 1]!);
  }
  return Math.hypot(x1 - x0, y1 - y0);
}
