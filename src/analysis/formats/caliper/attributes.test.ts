import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  baseAttribute,
  caliperMajorVersion,
  isBookkeepingAttribute,
  metadataValue,
  parseSourceLocation,
} from './attributes';

describe('Caliper attribute conventions', () => {
  it('parses source locations', () => {
    assert.deepEqual(parseSourceLocation('/a/b.c:12'), { file: '/a/b.c', line: 12 });
    assert.deepEqual(parseSourceLocation('UNKNOWN:0'), { file: null, line: null });
    assert.deepEqual(parseSourceLocation('C:\\x\\y.c:7'), { file: 'C:\\x\\y.c', line: 7 });
  });

  it('finds the attribute behind aggregation ops and tells bookkeeping from quantities', () => {
    assert.equal(baseAttribute('avg#inclusive#sum#time.duration'), 'time.duration');
    assert.equal(baseAttribute('count'), 'count');
    assert.ok(isBookkeepingAttribute('min#min#aggregate.slot'));
    assert.ok(!isBookkeepingAttribute('sum#time.duration'));
  });

  it('types run metadata by the attribute type', () => {
    assert.equal(metadataValue('27', 'int'), 27);
    assert.equal(metadataValue('0.5', 'double'), 0.5);
    assert.equal(metadataValue('true', 'bool'), true);
    assert.equal(metadataValue('27', 'string'), '27');
    assert.equal(metadataValue('', 'int'), '', 'an empty number stays text');
  });

  it('reads the major Caliper version', () => {
    assert.equal(caliperMajorVersion({ 'cali.caliper.version': '2.10.0-dev' }), 2);
    assert.equal(caliperMajorVersion({ 'cali.caliper.version': 1 }), null);
    assert.equal(caliperMajorVersion({}), null);
  });
});
