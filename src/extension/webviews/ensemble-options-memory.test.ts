import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeLuleshWeakScaling } from '../../analysis/ensemble/testing/lulesh-weak-scaling';
import { LocalAnalysisService } from '../../service/local-analysis-service';
import { DEFAULT_ENSEMBLE_OPTIONS, type EnsembleOptions } from '../../shared/ensemble-protocol';
import {
  ENSEMBLE_OPTIONS_KEY,
  ensembleOptionsKey,
  MAX_REMEMBERED_ENSEMBLES,
  rememberedEnsembleOptions,
  rememberEnsembleOptions,
  type OptionsMemento,
} from './ensemble-options-memory';

class Memory implements OptionsMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const settings: EnsembleOptions = { ...DEFAULT_ENSEMBLE_OPTIONS, clusters: 4 };

describe('Ensemble CallFlow options remembered per ensemble (CallFlow §4.9)', () => {
  it('keeps only what differs from the settings, per ensemble, keyed by its sources in any order', () => {
    const m = new Memory();
    const a = ensembleOptionsKey(['file:///runs/b.json', 'file:///runs/a.json']);
    assert.equal(a, ensembleOptionsKey(['file:///runs/a.json', 'file:///runs/b.json']));
    const b = ensembleOptionsKey(['file:///other']);
    rememberEnsembleOptions(m, a, { ...settings, clusters: 6, textGuides: true }, settings);
    rememberEnsembleOptions(m, b, { ...settings, bins: 'auto' }, settings);
    assert.deepEqual(rememberedEnsembleOptions(m, a), { clusters: 6, textGuides: true });
    assert.deepEqual(rememberedEnsembleOptions(m, b), { bins: 'auto' });
    assert.deepEqual(rememberedEnsembleOptions(m, 'file:///never'), {});
    // Unchanged: no write. Back to the settings' values: the ensemble is forgotten.
    const writes = m.writes;
    assert.equal(rememberEnsembleOptions(m, a, { ...settings, clusters: 6, textGuides: true }, settings), undefined);
    assert.equal(m.writes, writes);
    rememberEnsembleOptions(m, a, settings, settings);
    assert.deepEqual(rememberedEnsembleOptions(m, a), {});
    assert.ok(!(a in (m.get<Record<string, unknown>>(ENSEMBLE_OPTIONS_KEY) ?? {})));
  });

  it('forgets the least recently changed ensembles beyond the limit, and ignores what it does not know', () => {
    const m = new Memory();
    for (let i = 0; i < MAX_REMEMBERED_ENSEMBLES + 5; i++)
      rememberEnsembleOptions(m, `e${i}`, { ...settings, clusters: 5 + (i % 3) }, settings);
    const kept = Object.keys(m.get<Record<string, unknown>>(ENSEMBLE_OPTIONS_KEY)!);
    assert.equal(kept.length, MAX_REMEMBERED_ENSEMBLES);
    assert.ok(!kept.includes('e0') && kept.includes(`e${MAX_REMEMBERED_ENSEMBLES + 4}`));
    m.values.set(ENSEMBLE_OPTIONS_KEY, { x: { options: { clusters: 5, colour: 'red' }, used: 1 }, y: 'junk' });
    assert.deepEqual(rememberedEnsembleOptions(m, 'x'), { clusters: 5 });
    assert.deepEqual(rememberedEnsembleOptions(m, 'y'), {});
    m.values.set(ENSEMBLE_OPTIONS_KEY, [1, 2]);
    assert.deepEqual(rememberedEnsembleOptions(m, 'x'), {});
  });

  describe('a session opened with remembered options', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ens-options-'));
      writeLuleshWeakScaling(dir);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('starts with them over the settings; one the session refuses keeps its default and the others apply', async () => {
      const remembered: Partial<EnsembleOptions> = { clusters: 5, textGuides: true, bins: 10, iqrFactor: -1 };
      const s = new LocalAnalysisService();
      const e = await s.openEnsemble({ paths: [dir] });
      const view = await s.ensembleView({
        dataset: e.dataset,
        request: null,
        metric: 'time',
        title: 'lulesh',
        moduleMap: [],
        // As the panel sends them: the settings' clusters, then what this ensemble remembers.
        defaults: { clusters: 4, ...remembered },
      });
      assert.equal(view.state.options.clusters, 5);
      assert.equal(view.state.options.textGuides, true);
      assert.equal(view.state.options.bins, 10);
      assert.equal(view.state.options.iqrFactor, DEFAULT_ENSEMBLE_OPTIONS.iqrFactor);
      assert.equal(view.graph!.projection.k, 5);
    });
  });
});
