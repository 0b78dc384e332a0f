import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chooseFormat, readProfile } from '../analysis/formats';
import { sampleFile } from '../analysis/formats/file-sample';
import { WARM_PROFILES } from './warm-profiles';
import { warmUp, writeWarmProfile } from './warm-up';

/** The reader each warm-up profile is there to compile: the hot readers of the shared datasets. */
const EXPECTED_READER: Record<string, string> = {
  'warm.json': 'Caliper json-split',
  'warm-literal.json': 'Hatchet literal (JSON)',
  'warm.callgrind': 'Valgrind callgrind',
  'warm.folded': 'Folded (collapsed) stacks',
  'warm.cali': 'Caliper .cali',
  'warm-tau': 'TAU profile',
  'warm-tau-flat': 'TAU profile',
  'warm.dot': 'gprof2dot DOT call graph',
  'warm-hpctoolkit': 'HPCToolkit database (experiment.xml)',
  'warm-hpctoolkit-metric-db': 'HPCToolkit database (experiment.xml)',
  'warm.cube': 'CUBE (Score-P, Scalasca)',
  'warm.cubex': 'CUBE (Score-P, Scalasca)',
  'warm-hpctoolkit-v4': 'HPCToolkit database v4 (meta.db)',
};

describe('warm-up profiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-warm-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('covers each hot reader, and each profile is claimed by its reader and read without error', async () => {
    assert.deepEqual(Object.keys(WARM_PROFILES).sort(), Object.keys(EXPECTED_READER).sort());
    for (const [name, profile] of Object.entries(WARM_PROFILES)) {
      const path = writeWarmProfile(dir, name, profile);
      assert.equal(chooseFormat(await sampleFile(path))?.name, EXPECTED_READER[name], name);
      const p = await readProfile(path);
      assert.ok(p.tree.size >= 2, `${name}: a call tree of ${p.tree.size} nodes`);
      assert.ok(p.total(p.primaryMetric) > 0, `${name}: a non-zero total`);
    }
  });

  it('reaches the paths of real files beyond the plain read: nesting inference, the metric taxonomy, metric-db files', async () => {
    const read = (name: string) => readProfile(writeWarmProfile(dir, name, WARM_PROFILES[name]!));
    const flat = await read('warm-tau-flat');
    assert.ok(
      flat.warnings.some(w => /inferred from the timers' inclusive times/.test(w)),
      flat.warnings.join('; '),
    );
    const v4 = await read('warm-hpctoolkit-v4');
    assert.deepEqual(
      (v4.metadata['hpctoolkit.metricTaxonomy'] as { description: string }[]).map(t => t.description),
      ['Time on the CPU'],
    );
    const metricDb = await read('warm-hpctoolkit-metric-db');
    assert.deepEqual(
      metricDb.contexts.map(c => c.rank),
      [0, 1],
    );
    const names = Array.from({ length: metricDb.tree.size }, (_, i) => metricDb.tree.name(i));
    assert.ok(names.includes('<program root>'), `an entity decoded in a name: ${names.join(', ')}`);
  });

  it('runs every profile through the reader, the derivations and the super graph', async () => {
    const r = await warmUp();
    assert.equal(r.codeCache, 'none', 'no launcher here, so nothing to save');
    assert.ok(r.ms >= 0);
  });
});
