import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { sharedPath } from '../../../../test/support/shared-data';
import { parseMetricTaxonomy } from './metric-taxonomy';
import { parseSimpleYaml } from './taxonomy-yaml';

const TAXONOMY = `version: 0
inputs:
  - &cpu-i {metric: CPUTIME (sec), scope: execution, formula: $$, combine: sum}
roots:
  - name: CPU time
    description: CPU time of the thread
    variants: {Sum: {render: [number, percent], formula: {inclusive: *cpu-i}}}
`;

describe('metric taxonomy', () => {
  it('reads entries from the roots', () => {
    const entries = parseMetricTaxonomy(TAXONOMY);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.name, 'CPU time');
    assert.equal(entries[0]!.metric, 'CPUTIME (sec)');
  });

  it('writes no warnings to the process (a collection as a key), and fails cleanly on damage', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      parseMetricTaxonomy('roots:\n  - name: x\n    variants: {Sum: {render: [number], { ormula: first }}}\n');
    } catch {
      /* a clean failure is fine too */
    }
    // Node delivers process warnings on a later tick.
    await new Promise(resolve => setImmediate(resolve));
    process.off('warning', onWarning);
    assert.deepEqual(warnings, []);
    const damaged = 'roots:\n  - name: x\n' + '    variants: {Sum: {render: [number], formula: first}}'.repeat(2000);
    assert.throws(() => parseMetricTaxonomy(damaged));
  });
});

/** hpcprof's layout (newer: metrics nested under groups, inputs as anchored block mappings). */
const HPCPROF_LAYOUT = `version: 0
inputs:
  - &cpu-execution
    metric: CPUTIME (sec)
    scope: execution
    formula: $$
    combine: sum
  - &cpu-function
    metric: CPUTIME (sec)
    scope: function
    formula: $$
    combine: sum
roots:
  - name: CPU
    description: "Time spent within the CPU: \\"user\\" and system"
    variants:
      Sum:
        render: [number, percent]
        formula: first
    children:
    - name: 'CPUTIME (sec)'
      description: it's 1 of 2
      # a comment
      variants:
        Sum:
          render: [number, percent]
          formula:
            inclusive:
              standard: *cpu-execution
            exclusive: *cpu-function
`;

describe('metric taxonomy subset reader', () => {
  const options = { merge: true, maxAliasCount: 1_000_000, uniqueKeys: false, logLevel: 'error' as const };

  it('reads hpcprof-written taxonomies exactly as the yaml library does', () => {
    const texts = [HPCPROF_LAYOUT];
    for (const name of ['cpi-4ranks', 'lammps-openmp', 'ping-pong-mpi-with-trace']) {
      const path = sharedPath('data', 'hpctoolkit-metadb', name, 'metrics', 'default.yaml');
      if (existsSync(path)) texts.push(readFileSync(path, 'utf8'));
    }
    for (const text of texts) {
      const doc = parseSimpleYaml(text);
      assert.notEqual(doc, null);
      assert.deepEqual(doc, parse(text, options));
    }
    const [cpu] = parseMetricTaxonomy(HPCPROF_LAYOUT);
    assert.deepEqual(cpu, {
      metric: 'CPUTIME (sec)',
      name: 'CPUTIME (sec)',
      description: "it's 1 of 2",
      groups: ['CPU'],
      inclusiveScope: 'execution',
      exclusiveScope: 'function',
    });
  });

  it('reads plain scalars and keys with colons as the yaml library does', () => {
    const scalars = [
      'true',
      'True',
      'TRUE',
      'tRUE',
      'truex',
      'false',
      'False',
      'FALSE',
      'f',
      'null',
      '~',
      '0',
      '-1',
      '+2.5',
    ];
    scalars.push(
      '1e3',
      '.5',
      '5.',
      '0x1F',
      '0xg',
      '0o17',
      '0o8',
      '.inf',
      '-.Inf',
      '+.INF',
      '.NaN',
      '.nan',
      '-',
      '+',
      '.',
    );
    scalars.push('sum', '$$', 'CPUTIME (sec)', '1 2', 'execution', '12abc', '-x', 'a:b', 'x: y:z');
    for (const scalar of scalars) {
      for (const text of [`k: ${scalar}\n`, `a:b: ${scalar}\n`, `a:b:c:: ${scalar}\n`]) {
        let expected: unknown;
        try {
          expected = parse(text, options);
        } catch {
          continue; // not YAML (`k: -`): the subset reader's answer is not checked here
        }
        const doc = parseSimpleYaml(text);
        if (doc !== null) assert.deepEqual(doc, expected, JSON.stringify(text));
      }
    }
  });

  it('leaves what it does not read to the yaml library', () => {
    for (const text of [
      TAXONOMY,
      'roots:\n  - name: x\n    description: |\n      two\n      lines\n',
      'roots:\n  - name: a long\n    plain scalar\n',
      'a: &x {b: 1}\nc:\n  <<: *x\n',
      '---\nroots: []\n',
      'roots:\n\t- name: x\n',
      'roots: *nowhere\n',
      "roots:\n  - name: it's # a comment\n",
    ])
      assert.equal(parseSimpleYaml(text), null, text);
    assert.equal(parseMetricTaxonomy(TAXONOMY)[0]!.metric, 'CPUTIME (sec)', 'flow mappings still read');
  });
});
