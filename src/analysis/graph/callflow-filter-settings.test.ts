import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_CALLFLOW_FILTER,
  filterHeadline,
  guardHeadline,
  parseThresholdPercent,
  percentText,
  validateCallflowSettings,
} from './callflow-filter-settings';

describe('CallFlow filter settings', () => {
  it('reads the threshold in percent and the side; unset settings give the defaults', () => {
    assert.deepEqual(validateCallflowSettings({ filterThreshold: 0.5, filterBy: 'exclusive' }), {
      filter: { threshold: 0.005, by: 'exclusive' },
      warnings: [],
    });
    assert.deepEqual(validateCallflowSettings({}), { filter: DEFAULT_CALLFLOW_FILTER, warnings: [] });
    assert.deepEqual(validateCallflowSettings({ filterThreshold: 0 }).filter.threshold, 0);
    assert.deepEqual(validateCallflowSettings({ filterThreshold: 100 }).filter.threshold, 1);
  });

  it('warns naming the setting and keeps the last valid value for out-of-range or non-number values', () => {
    const last = { threshold: 0.005, by: 'exclusive' as const };
    for (const bad of [-1, 150, NaN, Infinity, '0.5', null, true, { v: 1 }]) {
      const r = validateCallflowSettings({ filterThreshold: bad, filterBy: 'inclusive' }, last);
      assert.deepEqual(r.filter, { threshold: 0.005, by: 'inclusive' }, String(bad));
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0]!, /^hpcLens\.callflow\.filterThreshold must be a number of percent between 0 and 100/);
      assert.match(r.warnings[0]!, /keeping 0\.5 %$/);
    }
    const r = validateCallflowSettings({ filterThreshold: 150, filterBy: 'self' }, last);
    assert.deepEqual(r.filter, last);
    assert.deepEqual(r.warnings, [
      'hpcLens.callflow.filterThreshold must be a number of percent between 0 and 100, not 150; keeping 0.5 %',
      'hpcLens.callflow.filterBy must be "inclusive" or "exclusive", not "self"; keeping "exclusive"',
    ]);
  });

  it('parses a typed threshold in percent', () => {
    assert.equal(parseThresholdPercent('0.1'), 0.1);
    assert.equal(parseThresholdPercent(' 0.25 % '), 0.25);
    assert.equal(parseThresholdPercent('.5%'), 0.5);
    assert.equal(parseThresholdPercent('1e-2'), 0.01);
    assert.equal(parseThresholdPercent('100'), 100);
    for (const bad of ['', '-1', '101', 'abc', '1%%', '0x10', '1,5'])
      assert.equal(parseThresholdPercent(bad), null, bad);
  });

  it('states what the filter did, as the header shows it', () => {
    assert.equal(percentText(0.001), '0.1 %');
    assert.equal(percentText(0.0001), '0.01 %');
    assert.equal(
      filterHeadline({
        threshold: 0.001,
        by: 'inclusive',
        removedNodes: 1189,
        removedFunctions: 172,
        totalFunctions: 230,
        keptFunctions: 58,
        totalNodes: 1908,
        repopulatedNodes: 0,
      }),
      '0.1 % filter: 58 of 230 functions kept, 1,189 nodes folded into callers',
    );
    assert.equal(
      filterHeadline({
        threshold: 0.005,
        by: 'exclusive',
        removedNodes: 10,
        removedFunctions: 2,
        totalFunctions: 5,
        keptFunctions: 3,
        totalNodes: 1200,
        repopulatedNodes: 1002,
      }),
      '0.5 % exclusive filter: 3 of 5 functions kept, 10 nodes folded into callers, 1,002 shown again',
    );
    assert.equal(
      filterHeadline({
        threshold: 0,
        by: 'inclusive',
        removedNodes: 0,
        removedFunctions: 0,
        totalFunctions: 230,
        keptFunctions: 230,
        totalNodes: 1908,
      }),
      'No filter: 230 functions, 1,908 nodes',
    );
    assert.equal(filterHeadline({ threshold: 0.001, by: 'inclusive', removedNodes: 1, removedFunctions: 1 }), null);
    assert.equal(
      guardHeadline({ limit: 2000, supernodes: 162954, shown: 2000, omitted: 160954, omittedInclusive: 1 }),
      '2,000 of 162,954 supernodes shown: the heaviest, with their callers (160,954 left out)',
    );
    assert.equal(guardHeadline(undefined), null);
  });
});
