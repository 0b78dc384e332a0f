import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sampleFile } from '../../analysis/formats/file-sample';
import { Profile } from '../../analysis/model/profile';
import { EDITOR_METRICS } from '../../analysis/pdes/editor-profile';
import { METRIC } from '../../analysis/pdes/model/metrics';
import { pdesReportAnalyses } from '../../analysis/pdes/pdes-analysis';
import { pdesReport } from '../../analysis/pdes/pdes-report';
import { readPdesRun } from '../../analysis/formats/ross/pdes-run-reader';
import { adjustedRandIndex } from '../../analysis/series/cluster-labels';
import { DRAGONFLY_DALLY_MODEL_SOURCE } from '../../analysis/pdes/testing/dragonfly-model-source';
import { generateRossRun, type RossRunTruth } from '../../analysis/pdes/testing/ross-generator';
import { DFDALLY_72 } from '../../analysis/topology/dragonfly';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { LocalAnalysisService } from '../local-analysis-service';
import type { DatasetHandle } from '../analysis-service';
import { systemForSample } from '.';
import type { PdesRequest } from './pdes-system';

/**
 * The PDES system as the panel and the editor use it, through the in-process service (the same
 * calls the worker pool makes in the dataset's own worker): claiming folders by content, the
 * editor profile of handlers, every answer the panel asks for, cancellation and progress, on the
 * shared real runs (skipped when absent) and on the seeded generator.
 */
const ROOT = resolve(__dirname, '..', '..', '..');
const RUNS = 'data/pdes-ross-codes';
const run = (name: string) => sharedPath(RUNS, name);
const FULL_TRACE = 'codes-dragonfly-dally-72-uniform-random-8pe-fulltrace';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-system-'));
  dirs.push(d);
  return d;
};

const ask = <K extends PdesRequest['kind']>(
  s: LocalAnalysisService,
  dataset: DatasetHandle,
  request: Extract<PdesRequest, { kind: K }>,
  ctx: { signal?: AbortSignal; onProgress?: (f: number, m?: string) => void } = {},
) => s.systemRequest<'pdes', K>({ dataset, system: 'pdes', request }, ctx);

async function openPdes(
  s: LocalAnalysisService,
  path: string,
  limits?: Parameters<LocalAnalysisService['open']>[0]['limits'],
) {
  const o = await s.open({ path, ...(limits ? { limits } : {}) });
  assert.equal(o.system, 'pdes', `${path} opens as a PDES run`);
  return o as Extract<typeof o, { system: 'pdes' }>;
}

describe('PDES system: which folders it claims', () => {
  it('claims ROSS and CODES output by content: a generated run, a single stats file, CODES network output only', async () => {
    const dir = tempDir();
    generateRossRun(dir, { seed: 3, pes: 2, kpsPerPe: 2, ticks: 6, eventsPerKp: 2 });
    assert.equal(systemForSample(await sampleFile(dir)), 'pdes');
    assert.equal(systemForSample(await sampleFile(join(dir, 'stats', 'synthetic-gvt.bin'))), 'pdes');
    const network = tempDir();
    mkdirSync(join(network, 'lp-io'));
    writeFileSync(join(network, 'lp-io', 'dragonfly-link-stats'), '# src_gid dst_gid link_type traffic\n');
    assert.equal(systemForSample(await sampleFile(network)), 'pdes');
  });

  it('claims every shared ROSS/CODES run', { skip: skipUnlessShared(RUNS) }, async () => {
    for (const name of [
      'codes-dragonfly-dally-72-uniform-random',
      'codes-dragonfly-dally-72-nearest-neighbor',
      FULL_TRACE,
      'ross-phold-2pe',
    ])
      assert.equal(systemForSample(await sampleFile(run(name))), 'pdes', name);
  });

  it('leaves other folders to the profile readers and the other systems', async () => {
    const folders = [join(ROOT, 'samples/heat-stencil/profiles'), join(ROOT, 'samples/heat-stencil')];
    for (const shared of [
      'data/hpctoolkit-xml/cpi-4ranks',
      'data/hpctoolkit-metadb/cpi-4ranks',
      'data/tau/cpi-mpi-4ranks-callpath',
      'data/pebs-memaxes/lulesh',
    ])
      if (!skipUnlessShared(shared)) folders.push(sharedPath(shared));
    // A MemAxes run folder is the memory system's: what matters here is that PDES does not claim it.
    for (const f of folders) assert.notEqual(systemForSample(await sampleFile(f)), 'pdes', f);
    const empty = tempDir();
    assert.equal(systemForSample(await sampleFile(empty)), null, 'an empty folder');
  });
});

describe('PDES system: the dataset the editor gets', { skip: skipUnlessShared(RUNS) }, () => {
  it('opens each shared run with totals equal to ross.csv and PEs, KPs and LPs for the Datasets view', async () => {
    const s = new LocalAnalysisService();
    const expected: Record<string, [number, number, number, number, number, number]> = {
      'codes-dragonfly-dally-72-uniform-random': [132578, 17224, 10405, 6819, 4, 64],
      'codes-dragonfly-dally-72-nearest-neighbor': [147750, 19674, 11760, 7914, 4, 64],
      'ross-phold-2pe': [79292, 2898, 533, 2365, 2, 8],
    };
    for (const [name, [processed, rollbacks, secondary, primary, pes, kps]] of Object.entries(expected)) {
      const o = await openPdes(s, run(name));
      assert.deepEqual(o.opened.totals, {
        eventsProcessed: processed,
        rollbacks,
        primaryRollbacks: primary,
        secondaryRollbacks: secondary,
      });
      assert.equal(o.opened.entities.pe, pes);
      assert.equal(o.opened.entities.kp, kps);
      // The rollback-only event traces hold exactly the primary rollbacks.
      assert.equal(o.opened.eventTrace?.events, primary, `${name}: rollback trace`);
      assert.equal(o.opened.eventTrace?.scope, 'rollback-causing events');
      await s.close({ dataset: o.dataset });
    }
  });

  it('gives the editor the model’s handlers per PE: the full trace’s 249,907 events land on the handlers of their LPs', async () => {
    const s = new LocalAnalysisService();
    const o = await openPdes(s, run(FULL_TRACE));
    assert.deepEqual(o.opened.entities, { pe: 8, kp: 128, lp: 180 });
    assert.equal(o.opened.eventTrace?.events, 249907);
    assert.equal(o.opened.eventTrace?.sameProcessShare, 0.734);
    assert.deepEqual(o.opened.links, { total: 324, byType: { CN: 144, L: 108, G: 72 } });
    assert.deepEqual(o.opened.dragonfly, DFDALLY_72);
    const p = new Profile(o.data);
    assert.equal(p.format, 'ross-codes');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      Array.from({ length: 8 }, (_, i) => `PE ${i}`),
      'one context per PE (its MPI rank)',
    );
    const processed = p.metricIndex(EDITOR_METRICS.eventsProcessed);
    const excl = p.exclusiveTotals(processed);
    const byName = new Map<string, number>();
    for (let i = 0; i < p.tree.size; i++) byName.set(p.tree.name(i), (byName.get(p.tree.name(i)) ?? 0) + excl[i]!);
    assert.ok(byName.get('terminal_dally_event')! > 0 && byName.get('router_dally_event')! > 0);
    assert.equal(p.total(processed), 249907, 'every traced event was processed by an LP of a typed LP');
    assert.equal(
      byName.get('nw-lp')! + byName.get('terminal_dally_event')! + byName.get('router_dally_event')!,
      249907,
    );
    assert.equal(p.primaryMetric, p.metricIndex(EDITOR_METRICS.handlerCalls));
    // The handler nodes are recorded by the setting's path without the glob (resolved by trailing components).
    const handlerFiles = new Set<string>();
    for (let i = 0; i < p.tree.size; i++) if (p.tree.file(i)) handlerFiles.add(p.tree.file(i)!);
    assert.deepEqual([...handlerFiles], ['src/networks/model-net/dragonfly-dally.C']);
    // The overlays derive from it like from any profile.
    const d = await s.derive({
      dataset: o.dataset,
      metric: p.primaryMetric,
    });
    assert.deepEqual(d.fileFunctions.files, ['src/networks/model-net/dragonfly-dally.C']);
    const lists = await s.sideBar({
      dataset: o.dataset,
      metric: p.primaryMetric,
      options: { hotPathThreshold: 0.05, listLength: 10 },
    });
    assert.equal(lists.topFunctions.length > 0, true);
  });
});

describe('PDES system: handler sources and settings', () => {
  it('finds handler sources under the source roots and puts each handler at its definition line', async () => {
    const dir = tempDir();
    generateRossRun(dir, {
      seed: 5,
      pes: 2,
      kpsPerPe: 2,
      ticks: 8,
      eventsPerKp: 3,
      dragonfly: { groups: 3, routersPerGroup: 2, terminalsPerRouter: 1, globalChannelsPerRouter: 1 },
    });
    const src = tempDir();
    const model = join(src, 'codes', 'src', 'networks', 'model-net');
    mkdirSync(model, { recursive: true });
    const text = DRAGONFLY_DALLY_MODEL_SOURCE;
    writeFileSync(join(model, 'dragonfly-dally.C'), text);
    const s = new LocalAnalysisService();
    const o = await openPdes(s, dir, {
      systems: {
        pdes: {
          sourceRoots: [src],
          handlers: { 'nw-lp': { file: 'workload/svr.c', forward: 'svr_event' }, broken: { forward: 'x' } },
        },
      },
    });
    const p = new Profile(o.data);
    const at = new Map<string, [string | null, number | null]>();
    for (let i = 0; i < p.tree.size; i++) at.set(p.tree.name(i), [p.tree.file(i), p.tree.line(i)]);
    const file = join(model, 'dragonfly-dally.C');
    assert.deepEqual(at.get('terminal_dally_event'), [file, 3]);
    assert.deepEqual(at.get('terminal_dally_rc_event_handler'), [file, 8]);
    assert.deepEqual(at.get('router_dally_event'), [file, 13]);
    assert.deepEqual(at.get('router_dally_rc_event_handler'), [file, 16]);
    // A handler whose file is nowhere keeps the setting's path, with no line.
    assert.deepEqual(at.get('svr_event'), ['workload/svr.c', null]);
    const types = new Map(o.opened.lpTypes.map(t => [t.name, t]));
    assert.equal(types.get('modelnet_dragonfly_dally_router')?.found, true);
    assert.equal(types.get('nw-lp')?.found, false);
    assert.deepEqual(o.opened.handlerProblems, [
      'hpcLens.pdes.handlers["broken"] needs a "file" and a "forward" handler name (and optionally "reverse")',
    ]);
    assert.ok(p.warnings.some(w => w.includes('hpcLens.pdes.handlers["broken"]')));
    // Heat: the forward handlers' lines carry the events they processed.
    const d = await s.derive({
      dataset: o.dataset,
      metric: p.primaryMetric,
    });
    const k = d.lines.files.indexOf(file);
    assert.ok(k >= 0);
    const lines = Array.from(d.lines.line.subarray(d.lines.lineStart[k]!, d.lines.lineStart[k + 1]!));
    assert.ok(lines.includes(3) && lines.includes(13), `heat lines ${lines}`);
  });

  it('refuses bad analysis settings with the setting’s name', async () => {
    const dir = tempDir();
    generateRossRun(dir, { seed: 6, pes: 2, kpsPerPe: 2, ticks: 8, eventsPerKp: 3 });
    const s = new LocalAnalysisService();
    const o = await openPdes(s, dir);
    await assert.rejects(
      ask(s, o.dataset, { kind: 'views', options: { clusters: 0 }, state: {} }),
      /hpcLens\.pdes\.clusters is 0/,
    );
    await assert.rejects(
      ask(s, o.dataset, {
        kind: 'views',
        options: { detailMetrics: ['rollbackz', METRIC.primaryRollbacks] },
        state: {},
      }),
      /"rollbackz" is no PDES metric/,
    );
    await assert.rejects(
      ask(s, o.dataset, { kind: 'views', options: { changePoints: [500] }, state: {} }),
      /segment starts must be increasing sample indices/,
    );
  });
});

describe('PDES system: the panel’s answers on the seeded generator', () => {
  let s: LocalAnalysisService;
  let dataset: DatasetHandle;
  let truth: RossRunTruth;
  let dir: string;
  before(async () => {
    dir = tempDir();
    truth = generateRossRun(dir, { seed: 7 });
    s = new LocalAnalysisService();
    dataset = (await openPdes(s, dir)).dataset;
  });
  const options = { detailMetrics: [METRIC.networkSends, METRIC.networkRecvs] as [string, string] };

  it('finds the planted change points and ranks the PE 7–PE 8 ribbon first only in burst segments', async () => {
    const v = await ask(s, dataset, { kind: 'views', options: {}, state: {} });
    const found = v.changePoints.detected.map(c => c.index);
    for (const planted of truth.changePoints)
      assert.ok(
        found.some(c => Math.abs(c - planted) <= 2),
        `planted ${planted}: found ${found}`,
      );
    const bursts = truth.parameters.bursts;
    for (const seg of v.circular.segments) {
      const rank = seg.ribbons.findIndex(r => r.source === 7 && r.target === 8);
      const burst = bursts.some(b => seg.segment.start >= b.start - 2 && seg.segment.end <= b.end + 2);
      if (burst) assert.equal(rank, 0, `burst segment ${seg.segment.label}`);
      else assert.ok(rank !== 0, `calm segment ${seg.segment.label}: PE 7–PE 8 does not stand out`);
    }
    // Scales are shared across segments: one ribbon maximum, ring ranges over every segment.
    const largest = Math.max(...v.circular.segments.flatMap(x => x.ribbons.map(r => r.value)));
    assert.equal(v.circular.scales.ribbon, largest);
  });

  it('recovers the three planted PE-block groups (ARI ≥ 0.9) and the ring colours group by PE', async () => {
    const v = await ask(s, dataset, { kind: 'views', options: {}, state: {} });
    const labels = new Int32Array(v.entities.ids.length);
    v.details[0].lines.forEach(l => (labels[l.entity] = l.cluster));
    assert.ok(adjustedRandIndex(labels, truth.kpGroup) >= 0.9);
    const c = v.circular;
    for (const g of c.groups) {
      const colours = new Set(Array.from(c.clusters.subarray(g.first, g.first + g.count)));
      assert.equal(colours.size, 1, `${g.label}: one colour`);
    }
    assert.deepEqual(
      v.details[0].legend.map(l => l.label),
      v.clustering.sizes.map((n, i) => `Cluster-${i} (${n})`),
    );
  });

  it('a stroke crossing k lines selects exactly those, and every linked view then shows only them', async () => {
    const v0 = await ask(s, dataset, { kind: 'views', options, state: {} });
    // A vertical stroke at one sample spanning the k highest values there crosses exactly those lines.
    const lines = v0.details[0].lines;
    const sample = v0.range.from + 40;
    const x = v0.details[0].lines[0]!.points[2 * (sample - v0.range.from)]!;
    const at = lines.map(l => ({ entity: l.entity, y: l.points[2 * (sample - v0.range.from) + 1]! }));
    at.sort((a, b) => b.y - a.y);
    const k = at.findIndex((p, i) => i >= 3 && at[i + 1] && p.y > at[i + 1]!.y) + 1;
    const want = at
      .slice(0, k)
      .map(p => p.entity)
      .sort((a, b) => a - b);
    const low = (at[k - 1]!.y + at[k]!.y) / 2;
    const v = await ask(s, dataset, {
      kind: 'views',
      options,
      state: {
        pick: {
          view: 'detail',
          index: 0,
          points: [
            [x, low],
            [x, at[0]!.y + 1],
          ],
        },
      },
    });
    assert.deepEqual(v.selection.entities, want, `${k} lines crossed`);
    assert.deepEqual(Array.from(v.selected), want);
    assert.deepEqual(
      v.details[1].lines.map(l => l.entity),
      want,
      'the linked receive view shows only them',
    );
    assert.deepEqual(Array.from(v.similarity[0].entities), want);
    assert.deepEqual(Array.from(v.similarity[1].entities), want);
    assert.equal(v.overview.entities, k);
    assert.deepEqual(
      Array.from(v.circular.items).sort((a, b) => a - b),
      want,
    );
    assert.deepEqual(
      Array.from(v.matrix!.rows).sort((a, b) => a - b),
      want,
    );
    assert.equal(
      v.handlers.rows.reduce((n, h) => n + h.lps, 0),
      k * 4,
      'the handlers of their LPs (4 per KP)',
    );
    // A stroke that crosses nothing leaves the selection as it was, and says so.
    const none = await ask(s, dataset, {
      kind: 'views',
      options,
      state: {
        selection: v.selection,
        pick: {
          view: 'detail',
          index: 0,
          points: [
            [x, -100],
            [x, -50],
          ],
        },
      },
    });
    assert.deepEqual(none.selection, v.selection);
    assert.match(none.pickNote ?? '', /crossed no selected line/);
  });

  it('a lasso, a cluster filter and a value filter narrow every view the same way', async () => {
    const v0 = await ask(s, dataset, { kind: 'views', options, state: {} });
    const sim = v0.similarity[1];
    // A rectangle around the left half of the points of the bottom similarity view.
    const xs = Array.from({ length: sim.entities.length }, (_, i) => sim.points[2 * i]!).sort((a, b) => a - b);
    const half = Math.floor(xs.length / 2);
    let cut = half;
    while (cut + 1 < xs.length && xs[cut + 1] === xs[cut]) cut++;
    const mid = (xs[cut]! + xs[cut + 1]!) / 2;
    const [y0, y1] = sim.yDomain;
    const lasso: [number, number][] = [
      [sim.xDomain[0] - 1, y0 - 1],
      [mid, y0 - 1],
      [mid, y1 + 1],
      [sim.xDomain[0] - 1, y1 + 1],
    ];
    const inside = Array.from(sim.entities)
      .filter((_, i) => sim.points[2 * i]! < mid)
      .sort((a, b) => a - b);
    const lassoed = await ask(s, dataset, {
      kind: 'views',
      options,
      state: { pick: { view: 'similarity', index: 1, points: lasso } },
    });
    assert.deepEqual(Array.from(lassoed.selected), inside);
    assert.deepEqual(
      lassoed.details[0].lines.map(l => l.entity),
      inside,
    );
    const cluster = await ask(s, dataset, { kind: 'views', options, state: { selection: { clusters: [1] } } });
    assert.equal(cluster.selected.length, cluster.clustering.sizes[1]);
    assert.ok(cluster.details[0].lines.every(l => l.cluster === 1));
    assert.ok(Array.from(cluster.similarity[0].clusters).every(c => c === 1));
    assert.ok(Array.from(cluster.circular.clusters).every(c => c === 1));
    assert.deepEqual(cluster.details[0].legend[1]!.shown, cluster.clustering.sizes[1]);
    // A threshold on each KP's highest sends over the range keeps exactly the KPs that reach it.
    const peak = (l: { points: Float64Array }) => Math.max(...Array.from(l.points).filter((_, i) => i % 2));
    const peaks = v0.details[0].lines.map(peak).sort((a, b) => a - b);
    const threshold = peaks[Math.floor(peaks.length / 2)]!;
    const filtered = await ask(s, dataset, {
      kind: 'views',
      options,
      state: { selection: { valueFilters: [{ metric: METRIC.networkSends, min: threshold }] } },
    });
    assert.equal(filtered.selected.length, peaks.filter(p => p >= threshold).length);
    assert.ok(filtered.selected.length < 256);
    for (const l of filtered.details[0].lines) assert.ok(peak(l) >= threshold);
    // Unselected lines stay, dimmed, when asked.
    const kept = await ask(s, dataset, {
      kind: 'views',
      options,
      state: { selection: { clusters: [1] }, keepUnselected: true },
    });
    assert.equal(kept.details[0].lines.length, 256);
    assert.equal(kept.details[0].lines.filter(l => l.selected).length, cluster.selected.length);
  });

  it('applies view-only options and edited segments to the cached analysis, and recomputes for analysis options', async () => {
    const phases: string[] = [];
    const progress = { onProgress: (_: number, m?: string) => m && phases.push(m) };
    await ask(s, dataset, { kind: 'views', options: { clusters: 4 }, state: {} }, progress);
    assert.ok(
      phases.includes('clustering entities') && phases.includes('detecting change points (E-Divisive)'),
      phases.join(),
    );
    phases.length = 0;
    const styled = await ask(
      s,
      dataset,
      {
        kind: 'views',
        options: {
          clusters: 4,
          overviewStatistic: 'max',
          ringEncoding: 'heatmap',
          ribbonThreshold: 5,
          changePoints: [50],
        },
        state: {},
      },
      progress,
    );
    assert.deepEqual(phases, [], 'no analysis ran again');
    assert.equal(styled.overview.statistic, 'max');
    assert.equal(styled.circular.encoding, 'heatmap');
    assert.deepEqual(
      styled.segments.map(x => [x.start, x.end]),
      [
        [0, 50],
        [50, 100],
      ],
    );
    assert.equal(styled.changePoints.edited, true);
    assert.equal(styled.circular.segments.length, 2);
    assert.ok(styled.circular.segments.every(x => x.ribbons.every(r => r.value >= 5)));
    const brushed = await ask(
      s,
      dataset,
      { kind: 'views', options: { clusters: 4, range: { from: 20, to: 60 } }, state: {} },
      progress,
    );
    assert.ok(phases.length > 0, 'a new range is a new analysis');
    assert.deepEqual(brushed.range, { from: 20, to: 60 });
    assert.deepEqual(brushed.overview.brush.from, 20);
    assert.ok(brushed.details[0].lines.every(l => l.points.length === 2 * 40));
  });

  it('answers the handler CodeLenses for a selection, and the CLI’s report', async () => {
    const all = await ask(s, dataset, { kind: 'handlerActivity', options: {}, selection: {} });
    assert.deepEqual([all.selected, all.total, all.level], [256, 256, 'kp']);
    assert.equal(all.rows.length, 1);
    assert.equal(all.rows[0]!.lps, 1024);
    assert.equal(all.rows[0]!.eventsProcessed, truth.totals.events);
    const two = await ask(s, dataset, { kind: 'handlerActivity', options: {}, selection: { entities: [0, 1] } });
    assert.equal(two.rows[0]!.lps, 8);
    assert.equal(two.selected, 2);
    const cluster = await ask(s, dataset, { kind: 'handlerActivity', options: {}, selection: { clusters: [0] } });
    assert.ok(cluster.rows[0]!.lps > 0 && cluster.rows[0]!.lps < 1024);
    const report = await ask(s, dataset, { kind: 'report', options: {} });
    const pdesRun = await readPdesRun(dir);
    assert.deepEqual(report, await pdesReport(pdesRun, pdesReportAnalyses(pdesRun, {})));
  });
});

describe('PDES system: cancellation', () => {
  it('a cancelled request stops its analysis in the worker; the next one computes it again', async () => {
    const dir = tempDir();
    generateRossRun(dir, { seed: 9, pes: 8, kpsPerPe: 8, ticks: 200, eventsPerKp: 4, eventTrace: false });
    const s = new LocalAnalysisService();
    const { dataset } = await openPdes(s, dir);
    const heavy = { distance: 'dtw', projection: 'tsne', clustering: 'pam' } as const;
    const abort = new AbortController();
    const pending = ask(s, dataset, { kind: 'views', options: heavy, state: {} }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 30);
    const t0 = performance.now();
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
    assert.ok(performance.now() - t0 < 2000, 'stopped between slices, not at the end');
    const v = await ask(s, dataset, { kind: 'views', options: { ...heavy, tsneIterations: 50 }, state: {} });
    assert.equal(v.clustering.algorithm, 'pam');
    assert.equal(v.similarity[0].method, 'tsne');
  });
});
