import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../stats/seeded-random';
import { caliperMajorVersion } from './attributes';
import { caliperMetricLabel, planMetrics, primaryMetricOf, unitOf } from './metrics';

describe('Caliper metric columns', () => {
  const columns = (...names: string[]) => names.map((name, index) => ({ index, name }));

  it('pairs X with inclusive#X and renames the time pair as Hatchet does', () => {
    const plans = planMetrics(
      columns('sum#time.duration', 'count', 'inclusive#sum#time.duration', 'inclusive#count'),
      2,
    );
    assert.deepEqual(
      plans.map(p => [p.descriptor.name, p.descriptor.kind, p.exclusiveColumn, p.inclusiveColumn, p.descriptor.unit]),
      [
        ['time', 'both', 0, 2, 's'],
        ['count', 'both', 1, 3, 'count'],
      ],
    );
  });

  it('models cross-rank aggregates as inclusive or exclusive metrics with their aggregation', () => {
    const plans = planMetrics(
      columns('avg#inclusive#sum#time.duration', 'max#sum#time.duration', 'min#min#aggregate.slot', 'any#any#max#Reps'),
      null,
    );
    assert.deepEqual(
      plans.map(p => [p.descriptor.name, p.descriptor.kind, p.descriptor.aggregation]),
      [
        ['avg#inclusive#sum#time.duration', 'inclusive', 'avg'],
        ['max#sum#time.duration', 'exclusive', 'max'],
        ['any#any#max#Reps', 'exclusive', 'sum'],
      ],
    );
    assert.equal(primaryMetricOf(plans.map(p => p.descriptor)), 0);
  });

  it("knows the timer's inclusive durations", () => {
    const [plan] = planMetrics(columns('sum#time.inclusive.duration.ns'), 2);
    assert.deepEqual([plan!.descriptor.kind, plan!.descriptor.unit], ['inclusive', 'ns']);
  });

  it('takes units from the file, else from the Caliper version', () => {
    assert.equal(unitOf({ index: 0, name: 'sum#time.duration', unit: 'sec' }, null), 's');
    assert.equal(unitOf({ index: 0, name: 'sum#time.duration' }, 2), 's');
    assert.equal(unitOf({ index: 0, name: 'sum#time.duration' }, 1), 'µs');
    assert.equal(unitOf({ index: 0, name: 'sum#time.duration' }, null), 'µs');
    assert.equal(unitOf({ index: 0, name: 'sum#time.duration.ns' }, 2), 'ns');
  });

  it('reads CUDA activity durations in ns, in s once scaled, unless the file says otherwise', () => {
    assert.equal(unitOf({ index: 0, name: 'sum#cupti.activity.duration' }, 2), 'ns');
    assert.equal(unitOf({ index: 0, name: 'sum#scale#cupti.activity.duration' }, 2), 's');
    assert.equal(unitOf({ index: 0, name: 'inclusive#scale#sum#cupti.host.duration' }, null), 's');
    assert.equal(unitOf({ index: 0, name: 'sum#scale#cupti.activity.duration', unit: 'usec' }, 2), 'µs');
  });

  it('labels Caliper columns readably and keeps the raw name as the metric name', () => {
    assert.equal(caliperMetricLabel('inclusive#scale#sum#cupti.host.duration'), 'CUDA host time (inclusive)');
    assert.equal(caliperMetricLabel('sum#scale#cupti.activity.duration'), 'CUDA activity time');
    assert.equal(caliperMetricLabel('avg#inclusive#sum#time.duration'), 'Time (inclusive, avg over ranks)');
    assert.equal(caliperMetricLabel('sum#my_counter.value'), 'My counter value');
    const plans = planMetrics(
      [
        { index: 0, name: 'sum#scale#cupti.host.duration' },
        { index: 1, name: 'inclusive#sum#scale#cupti.host.duration' },
        { index: 2, name: 'sum#scale#cupti.activity.duration', alias: 'GPU time' },
      ],
      2,
    );
    assert.deepEqual(
      plans.map(p => [p.descriptor.name, p.descriptor.label, p.descriptor.unit, p.descriptor.kind]),
      [
        ['sum#scale#cupti.host.duration', 'CUDA host time', 's', 'both'],
        ['sum#scale#cupti.activity.duration', 'GPU time', 's', 'exclusive'],
      ],
    );
  });

  it('labels, units and the Caliper version come out as the regular expressions they stand for give them', () => {
    const random = seededRandom(24);
    const pieces = ['cupti', 'rocm', '.', '_', '..', 'duration', 'host', 'a', 'x', '1', '\n', '\u2028'];
    // Attributes with a label of their own (ATTRIBUTE_LABELS) that the pieces can make.
    const named = ['cupti.host.duration', 'rocm.host.duration'];
    const text = () => {
      let t = '';
      for (let n = Math.floor(random() * 7); n > 0; n--) t += pieces[Math.floor(random() * pieces.length)];
      return t;
    };
    for (let k = 0; k < 20_000; k++) {
      const attr = text();
      const name = (random() < 0.5 ? 'scale#' : '') + attr;
      const label = attr.replace(/[._]+/g, ' ').replace(/^\w/, c => c.toUpperCase()) || name;
      if (!named.includes(attr)) assert.equal(caliperMetricLabel(name), label, JSON.stringify(name));
      const unit = /^(cupti|rocm)\..*duration$/.test(attr) ? (name.startsWith('scale#') ? 's' : 'ns') : null;
      if (unit) assert.equal(unitOf({ index: 0, name }, 2), unit, JSON.stringify(name));
      else assert.notEqual(unitOf({ index: 0, name }, 2), 'ns', JSON.stringify(name));
      const version = text().replace(/[a-z]/g, c => String(c.charCodeAt(0) % 10));
      const major = /^(\d+)\./.exec(version);
      assert.equal(caliperMajorVersion({ 'cali.caliper.version': version }), major ? Number(major[1]) : null, version);
    }
  });
});
