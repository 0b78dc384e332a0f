import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planMetrics, type MetricEntry } from './metric-plan';

const entry = (id: number, name: string, type: MetricEntry['type'], partner: number | null = null): MetricEntry => ({
  id: String(id),
  name,
  type,
  partner: partner === null ? null : String(partner),
  column: id,
});

describe('HPCToolkit metric plan', () => {
  it('pairs inclusive and exclusive entries by partner, else by name', () => {
    const plans = planMetrics([
      entry(0, 'CPUTIME (usec) (I)', 'inclusive', 1),
      entry(1, 'CPUTIME (usec) (E)', 'exclusive', 0),
      entry(2, 'PAPI_TOT_CYC (I)', 'nil'),
      entry(3, 'PAPI_TOT_CYC (E)', 'nil'),
    ]);
    assert.deepEqual(
      plans.map(p => [p.descriptor.name, p.inclusive?.id, p.exclusive?.id]),
      [
        ['time', '0', '1'],
        ['PAPI_TOT_CYC', '2', '3'],
      ],
    );
  });

  it('names repeated metrics uniquely, in one pass over thousands of them', () => {
    const n = 20_000;
    const entries = Array.from({ length: n }, (_, i) =>
      entry(i, 'CPUTIME (usec) (I)', i % 2 ? 'exclusive' : 'inclusive'),
    );
    const plans = planMetrics(entries);
    assert.equal(plans.length, n / 2);
    assert.deepEqual(
      plans.slice(0, 4).map(p => p.descriptor.name),
      ['time', 'CPUTIME (usec)', 'CPUTIME (usec) #2', 'CPUTIME (usec) #3'],
    );
    assert.equal(plans.at(-1)!.descriptor.name, `CPUTIME (usec) #${n / 2 - 1}`);
    assert.equal(new Set(plans.map(p => p.descriptor.name)).size, n / 2);
    // Each inclusive entry is paired with the next exclusive one of its name.
    assert.deepEqual([plans[3]!.inclusive?.id, plans[3]!.exclusive?.id], ['6', '7']);
  });
});
