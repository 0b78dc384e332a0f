import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readProfile } from '../../analysis/formats';
import { REPO_ROOT } from '../../../test/support/shared-data';
import { contextCountText, datasetDescription, datasetTooltip, type DatasetFacts } from './dataset-summary';

const sample = join(REPO_ROOT, 'samples', 'heat-stencil', 'profiles', 'heat-stencil-sampling-4ranks.json');

test('a profile row says format, size on disk, ranks and nodes; the tooltip lists path, metrics and warnings', async () => {
  const profile = await readProfile(sample);
  const facts: DatasetFacts = {
    kind: 'profile',
    name: 'heat.json',
    profile,
    path: sample,
    size: 41234,
    metric: profile.primaryMetric,
    active: true,
  };
  assert.equal(datasetDescription(facts), `caliper-json-split · 41.2 kB · 4 ranks · ${profile.tree.size} nodes`);
  const tip = datasetTooltip(facts);
  assert.ok(tip.startsWith('**heat.json** (active)'), tip);
  assert.ok(tip.includes(`\`${sample}\``));
  assert.ok(
    tip.includes(`**${profile.metrics[profile.primaryMetric]!.label.replace(/[#_*]/g, c => `\\${c}`)}**`),
    `the selected metric is bold: ${tip}`,
  );
  assert.equal(tip.includes('warning'), profile.warnings.length > 0);
  assert.equal(
    datasetDescription({ ...facts, size: undefined }),
    `caliper-json-split · 4 ranks · ${profile.tree.size} nodes`,
  );
});

test('a trace row adds its events; one thread is singular', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-summary-'));
  const file = join(dir, 'trace.json');
  writeFileSync(
    file,
    JSON.stringify({
      traceEvents: [
        { name: 'main', ph: 'X', ts: 0, dur: 100, pid: 1, tid: 1 },
        { name: 'work', ph: 'X', ts: 10, dur: 50, pid: 1, tid: 1 },
      ],
    }),
  );
  const profile = await readProfile(file);
  assert.ok(profile.trace, 'read as a trace');
  const facts: DatasetFacts = {
    kind: 'trace',
    name: 'trace.json',
    profile,
    path: file,
    size: 10,
    metric: profile.primaryMetric,
    active: false,
  };
  assert.match(contextCountText(profile), /^1 (thread|rank|context)$/, 'singular for one');
  assert.match(
    datasetDescription(facts),
    new RegExp(`^chrome-trace · 10 B · 1 \\w+ · ${profile.tree.size} nodes · 2 events$`),
  );
  assert.ok(!datasetTooltip(facts).includes('(active)'));
});

test('a diff tooltip names both runs', async () => {
  const profile = await readProfile(sample);
  const tip = datasetTooltip({
    kind: 'diff',
    name: 'Δ a → b',
    profile,
    path: '/w/b.json',
    baselinePath: '/w/a.json',
    size: 1,
    metric: 0,
    active: false,
  });
  assert.ok(tip.includes('Baseline: `/w/a.json`') && tip.includes('Compared: `/w/b.json`'), tip);
});
