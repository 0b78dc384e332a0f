import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../stats/seeded-random';
import { ProfileReadError } from '../reader';
import { forEachContextValue, parseCctDb } from './cct-db';
import { gatherProfileRecords, UNKNOWN_METRIC, UNUSED_METRIC } from './cct-records';
import { encodeDatabase, type FixtureContext } from './test-db-writer';

/** A random tree of line contexts with two metrics (all scopes), values on some of 4 profiles. */
function randomCct(seed: number): Buffer {
  const random = seededRandom(seed);
  let nextId = 2;
  const make = (depth: number): FixtureContext => {
    const self: Record<number, number[]> = {};
    for (let p = 0; p < 4; p++) if (random() < 0.7) self[p] = [random() * 5, random() < 0.3 ? 0 : random()];
    const children: FixtureContext[] = [];
    while (depth < 4 && nextId < 40 && random() < 0.6) children.push(make(depth + 1));
    return { id: nextId++, type: 'line', file: 0, line: nextId, self, hidden: random() < 0.1, children };
  };
  return encodeDatabase({
    metrics: [{ name: 'CPUTIME (sec)' }, { name: 'cycles' }],
    files: ['/src/a.c'],
    entries: [{ id: 1, kind: 1, children: [make(0), make(0)] }],
    profiles: [0, 1, 2, 3].map(rank => [['RANK', rank]]),
  }).cct;
}

describe('cct.db records gathered into profile.db order', () => {
  it('gives each profile its used records in ctxId then metric order, and counts what it cannot place', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const cct = parseCctDb('cct.db', randomCct(seed));
      // Metric ids: some a slot, some a point slot, some unused, some unknown to meta.db; some contexts unlisted.
      const random = seededRandom(100 + seed);
      const actionOf = Int32Array.from({ length: 6 }, () => {
        const r = random();
        return r < 0.3
          ? Math.floor(random() * 2)
          : r < 0.5
            ? -3 - Math.floor(random() * 2)
            : r < 0.8
              ? UNUSED_METRIC
              : UNKNOWN_METRIC;
      });
      const nodeOfId = Int32Array.from({ length: cct.count }, (_, id) => (random() < 0.15 ? -1 : 1000 + id));
      const point: [number, number, number, number][] = [];
      const records = gatherProfileRecords({
        cct,
        actionOf,
        nodeOfId,
        nodeOfCtx: () => -1,
        capacity: [0, 1000, 1000, 1000, 1000],
        point: (slot, node, profile, value) => point.push([slot, node, profile, value]),
      })!;
      // The same walk by forEachContextValue, one value at a time.
      const expected: [number, number, number][][] = [[], [], [], [], []];
      const expectedPoint: [number, number, number, number][] = [];
      let unknown = 0,
        unlisted = 0;
      for (let ctx = 0; ctx < cct.count; ctx++)
        forEachContextValue(cct, ctx, (metric, profile, value) => {
          const action = metric < actionOf.length ? actionOf[metric]! : UNKNOWN_METRIC;
          const node = nodeOfId[ctx]!;
          if (action === UNKNOWN_METRIC) unknown++;
          else if (action === UNUSED_METRIC) return;
          else if (node < 0) {
            if (action < 0 && ctx !== 0) unlisted++;
          } else if (action < 0) expectedPoint.push([-3 - action, node, profile, value]);
          else expected[profile]!.push([action, node, value]);
        });
      for (let p = 0; p < 5; p++) {
        const got: [number, number, number][] = [];
        for (let k = records.start[p]!; k < records.end[p]!; k++)
          got.push([records.slot[k]!, records.node[k]!, records.value[k]!]);
        assert.deepEqual(got, expected[p], `seed ${seed}, profile ${p}`);
      }
      assert.deepEqual(point, expectedPoint, `seed ${seed}: point values`);
      assert.equal(records.unknownMetricValues, unknown, `seed ${seed}: unknown metric ids`);
      assert.equal(records.unlistedPointValues, unlisted, `seed ${seed}: point values of unlisted contexts`);
    }
  });

  it('gives up, leaving nothing half done, when a profile has more records than profile.db holds', () => {
    const cct = parseCctDb('cct.db', randomCct(5));
    let points = 0;
    const gather = (capacity: number[]) =>
      gatherProfileRecords({
        cct,
        // Metric 0 (point scope of the first metric) as a point slot, metric 2 (its execution scope) as slot 0.
        actionOf: Int32Array.of(-3, UNUSED_METRIC, 0, UNUSED_METRIC, UNUSED_METRIC, UNUSED_METRIC),
        nodeOfId: new Int32Array(cct.count),
        nodeOfCtx: () => -1,
        capacity,
        point: () => points++,
      });
    assert.equal(gather([0, 1, 100, 100, 100]), null);
    assert.equal(points, 0);
    const records = gather([0, 100, 100, 100, 100])!;
    assert.ok(points > 0 && records.end[1]! > records.start[1]! + 1);
  });

  it('names the context of a metric index entry that runs backwards or past its values', () => {
    const bytes = randomCct(3);
    const cct = parseCctDb('cct.db', bytes);
    // The first context with two metric index entries: its second entry starts past the values.
    let ctx = 0;
    while (ctx < cct.count && bytes.readUInt16LE(cct.pCtxs + ctx * cct.szCtx + 0x10) < 2) ctx++;
    const at = cct.pCtxs + ctx * cct.szCtx;
    const pIndices = Number(bytes.readBigUInt64LE(at + 0x18));
    bytes.writeBigUInt64LE(10_000n, pIndices + 10 + 2);
    const actionOf = Int32Array.of(0, 0, 0, 0, 0, 0);
    assert.throws(
      () =>
        gatherProfileRecords({
          cct: parseCctDb('cct.db', bytes),
          actionOf,
          nodeOfId: new Int32Array(cct.count),
          nodeOfCtx: () => -1,
          capacity: [0, 1000, 1000, 1000, 1000],
          point: () => {},
        }),
      (e: unknown) =>
        e instanceof ProfileReadError && new RegExp(`context ${ctx}: the metric index entry`).test(e.message),
    );
  });
});
