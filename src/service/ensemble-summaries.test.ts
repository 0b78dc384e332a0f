import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cachedSummaryName } from '../analysis/ensemble/run-summary';
import { writeSyntheticEnsemble } from '../analysis/ensemble/testing/synthetic-ensemble';
import { LocalAnalysisService } from './local-analysis-service';
import { unpackEnsembleGraph } from '../shared/ensemble-packing';
import { Profile } from '../analysis/model/profile';

describe('opening an ensemble from run summaries (issue 17)', () => {
  let dir = '',
    runs = '',
    cache = '',
    paths: string[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ens-sum-'));
    runs = join(dir, 'runs');
    cache = join(dir, 'cache');
    paths = writeSyntheticEnsemble(runs, { runs: 8, nodes: 700, maxContexts: 3, seed: 21 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const open = async () => {
    const s = new LocalAnalysisService();
    const e = await s.openEnsemble({ paths: [runs], summaryCache: cache });
    const view = await s.ensembleView({
      dataset: e.dataset,
      request: null,
      metric: 'time',
      title: 'runs',
      moduleMap: [],
    });
    return { e, view };
  };

  it('parses the profiles once, caches their summaries, and a reopen reads only summaries with the same union', async () => {
    const first = await open();
    assert.deepEqual(first.e.sources, { summaries: 0, profiles: 8 });
    assert.equal(readdirSync(cache).filter(f => f.endsWith('.hlsum')).length, 8);
    const second = await open();
    assert.deepEqual(second.e.sources, { summaries: 8, profiles: 0 });
    assert.deepEqual(
      second.e.runs.map(r => [r.name, r.ranks]),
      first.e.runs.map(r => [r.name, r.ranks]),
    );
    const a = first.e.data,
      b = second.e.data;
    assert.deepEqual(b.tree.parent, a.tree.parent);
    const x = new Profile(a).inclusive(0),
      y = new Profile(b).inclusive(0);
    for (let k = 0; k < x.length; k++) assert.ok(Math.abs(x[k]! - y[k]!) <= 1e-12 * Math.abs(x[k]!), `cell ${k}`);
    assert.deepEqual(
      unpackEnsembleGraph(second.view.graph!.data).nodes.map(n => n.id),
      unpackEnsembleGraph(first.view.graph!.data).nodes.map(n => n.id),
      'the Ensemble CallFlow graph is the same',
    );
  });

  it('a session starts with the settings’ cluster count and keeps its own choice; a bad default is ignored', async () => {
    const s = new LocalAnalysisService();
    const e = await s.openEnsemble({ paths: [runs], summaryCache: cache });
    const args = { dataset: e.dataset, metric: 'time', title: 'runs', moduleMap: [] };
    const first = await s.ensembleView({ ...args, request: null, defaults: { clusters: 4 } });
    assert.equal(first.state.options.clusters, 4);
    assert.equal(first.graph!.projection.k, 4);
    const picked = await s.ensembleView({
      ...args,
      request: { type: 'ensemble/options', options: { clusters: 2 } },
      defaults: { clusters: 4 },
    });
    assert.equal(picked.graph!.projection.k, 2, 'the panel’s choice for this ensemble wins over the settings');
    const other = await s.openEnsemble({ paths: [runs], summaryCache: cache });
    const bad = await s.ensembleView({ ...args, dataset: other.dataset, request: null, defaults: { clusters: 12 } });
    assert.equal(bad.state.options.clusters, 3);
  });

  it('re-reads a changed profile alone and silently rebuilds a corrupt summary', async () => {
    await open();
    appendFileSync(paths[2]!, '\n');
    writeFileSync(join(cache, cachedSummaryName(paths[5]!)), 'HPCLSUM\n garbage');
    const again = await open();
    assert.equal(again.e.errors.length, 0);
    assert.deepEqual(again.e.sources, { summaries: 6, profiles: 2 });
    assert.deepEqual((await open()).e.sources, { summaries: 8, profiles: 0 });
  });

  it('prunes the summary cache to the limits it is given, after the open touched what it read', async () => {
    const junk = join(cache, 'f'.repeat(40) + '.hlsum');
    writeFileSync(junk, 'not a summary');
    const s = new LocalAnalysisService();
    const e = await s.openEnsemble({
      paths: [runs],
      summaryCache: cache,
      summaryCacheLimits: { maxAgeDays: 1, maxBytes: 0 },
    });
    for (let k = 0; k < 100 && existsSync(junk); k++) await new Promise(r => setTimeout(r, 20));
    assert.ok(!existsSync(junk), 'the unreadable summary is removed');
    assert.equal(readdirSync(cache).filter(f => f.endsWith('.hlsum')).length, paths.length, 'the used ones are kept');
    await s.close({ dataset: e.dataset });
  });
});
