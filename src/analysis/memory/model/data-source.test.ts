import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePerfDataSource, encodePerfDataSource, LEVEL_NAMES, pebsLevel, pebsRemote } from './data-source';

describe('PEBS data-source codes', () => {
  it('map the low nibble to the serving level as MemAxes does', () => {
    const byNibble = Array.from({ length: 16 }, (_, n) => LEVEL_NAMES[pebsLevel(n)]);
    assert.deepEqual(byNibble, [
      'unresolved', // 0x0 unknown L3 miss
      'L1', // 0x1
      'L1', // 0x2 fill buffer
      'L2', // 0x3
      'L3', // 0x4
      'L3', // 0x5 snoop clean
      'L3', // 0x6 snoop dirty (HITM)
      'unresolved', // 0x7
      'RAM', // 0x8
      'unresolved', // 0x9
      'RAM', // 0xA
      'RAM', // 0xB remote
      'RAM', // 0xC
      'RAM', // 0xD remote
      'unresolved', // 0xE I/O
      'unresolved', // 0xF uncacheable
    ]);
  });

  it('ignore the STLB-miss and lock bits above the nibble', () => {
    assert.equal(pebsLevel(0x14), pebsLevel(0x4));
    assert.equal(pebsLevel(0x64), 3); // LULESH's most common L3 code
    assert.equal(pebsLevel(0x20), 0);
  });

  it('mark only 0xB and 0xD as remote', () => {
    const remote = Array.from({ length: 16 }, (_, n) => n).filter(n => pebsRemote(n | 0x10));
    assert.deepEqual(remote, [0xb, 0xd]);
  });
});

describe('perf_mem_data_src', () => {
  it('decodes all-N/A (what perf script prints for non-memory events) as unresolved', () => {
    // Real value from `perf record -e page-faults -d -W` on this machine: OP N/A, LVL N/A, lvl_num N/A.
    assert.deepEqual(decodePerfDataSource(0x1e05080021), { level: 0, remote: false, hops: 0 });
  });

  it('prefers mem_lvl_num and reads mem_remote and mem_hops', () => {
    const HIT = 0x2;
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvl: HIT | 0x8, lvlNum: 1 })).level, 1);
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0xc })).level, 1); // LFB
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 2 })).level, 2);
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 3 })).level, 3);
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0xb, hops: 1 })).level, 3);
    const remoteRam = decodePerfDataSource(encodePerfDataSource({ lvl: HIT, lvlNum: 0xd, remote: true, hops: 3 }));
    assert.deepEqual(remoteRam, { level: 4, remote: true, hops: 3 });
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0xd })).remote, false);
    // Another node of the same socket is still another NUMA node.
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0xd, hops: 2 })).remote, true);
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0x8 })).level, 0); // uncached
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvlNum: 0xa })).level, 0); // I/O
  });

  it('falls back to the mem_lvl mask when mem_lvl_num is not set', () => {
    const HIT = 0x2;
    const lvl = (mask: number) => decodePerfDataSource(encodePerfDataSource({ lvl: HIT | mask }));
    assert.equal(lvl(0x8).level, 1);
    assert.equal(lvl(0x10).level, 1);
    assert.equal(lvl(0x20).level, 2);
    assert.equal(lvl(0x40).level, 3);
    assert.deepEqual(lvl(0x80), { level: 4, remote: false, hops: 0 });
    assert.deepEqual(lvl(0x100), { level: 4, remote: true, hops: 0 });
    assert.deepEqual(lvl(0x400), { level: 3, remote: true, hops: 0 });
    assert.equal(lvl(0x1000).level, 0); // I/O
  });

  it('treats a level marked MISS (perf\u2019s "L3 miss") as unresolved', () => {
    assert.equal(decodePerfDataSource(encodePerfDataSource({ lvl: 0x4 | 0x40, lvlNum: 3 })).level, 0);
  });
});
