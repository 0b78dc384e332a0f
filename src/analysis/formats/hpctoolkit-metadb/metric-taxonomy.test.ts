import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMetricTaxonomy } from './metric-taxonomy';

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
