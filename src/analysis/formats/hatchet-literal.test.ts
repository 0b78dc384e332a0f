import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { checkAgainstOracle, oracleCases, oraclePath, type Oracle } from '../../../test/support/hatchet-oracle';
import { textSample } from '../../../test/support/file-samples';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import { inclusiveFromExclusive } from '../model/derive';
import type { Profile } from '../model/profile';
import { caliperJsonSplitReader } from './caliper-json-split';
import { hatchetLiteralReader, RECORDED_EXCLUSIVE_SUFFIX } from './hatchet-literal';
import { readProfile } from './index';
import { ProfileReadError } from './reader';

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-literal-'));
let fileCount = 0;
const write = (text: string | Buffer, name = `literal-${++fileCount}.json`): string => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

interface LiteralNode {
  name?: string;
  frame?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  children?: LiteralNode[];
  [other: string]: unknown;
}

/** JSON with every object's keys sorted, as `json.dump(sort_keys=True)` writes it ("children" before "frame"). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map(k => `${JSON.stringify(k)}: ${sortedJson(o[k])}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** Hatchet's own docstring example, with values that add up. */
const EXAMPLE: LiteralNode[] = [
  {
    frame: { name: 'A', type: 'function' },
    metrics: { 'time (inc)': 30, time: 0 },
    children: [
      {
        frame: { name: 'B', type: 'function' },
        metrics: { 'time (inc)': 11, time: 5 },
        children: [
          {
            frame: { name: 'C', type: 'function' },
            metrics: { 'time (inc)': 6, time: 5 },
            children: [{ frame: { name: 'D', type: 'function' }, metrics: { 'time (inc)': 1, time: 1 } }],
          },
        ],
      },
      {
        frame: { name: 'E', type: 'function' },
        metrics: { 'time (inc)': 19, time: 10 },
        children: [{ frame: { name: 'H', type: 'function' }, metrics: { 'time (inc)': 9, time: 9 } }],
      },
    ],
  },
];

const names = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join('/'));
const column = (p: Profile, metric: string, side: 'exclusive' | 'inclusive') => {
  const m = p.metricIndex(metric);
  assert.ok(m >= 0, `metric ${metric} missing; we have ${p.metrics.map(x => x.name).join(', ')}`);
  return [...(side === 'exclusive' ? p.exclusiveTotals(m) : p.inclusiveTotals(m))];
};

/** The model's promise: exclusive values of every subtree add up to the node's inclusive value. */
function assertSubtreeSums(p: Profile): void {
  p.metrics.forEach((d, m) => {
    const derived = inclusiveFromExclusive(p.tree.columns.parent, p.exclusive(m), p.contextCount);
    const inclusive = p.inclusive(m);
    derived.forEach((v, i) => {
      const w = inclusive[i]!;
      assert.ok(
        Math.abs(v - w) <= 1e-6 * Math.max(1, Math.abs(v), Math.abs(w)),
        `${d.name}, node ${i}: Σ exclusive ${v} ≠ inclusive ${w}`,
      );
    });
  });
}

describe('Hatchet literal reader', () => {
  it('reads to_literal output: tree, paired metric, one context', async () => {
    const p = await readProfile(write(JSON.stringify(EXAMPLE)));
    assert.equal(p.format, 'hatchet-literal');
    assert.deepEqual(names(p), ['A', 'A/B', 'A/B/C', 'A/B/C/D', 'A/E', 'A/E/H']);
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.sourceKeys]),
      [['time', 'both', ['time', 'time (inc)']]],
    );
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['process'],
    );
    assert.deepEqual(column(p, 'time', 'exclusive'), [0, 5, 5, 1, 10, 9]);
    assert.deepEqual(column(p, 'time', 'inclusive'), [30, 11, 6, 1, 19, 9]);
    assert.deepEqual(p.warnings, []);
    assertSubtreeSums(p);
  });

  it('reads keys in any order (json.dump with sort_keys puts "children" before "frame")', async () => {
    const p = await hatchetLiteralReader.read(write(sortedJson(EXAMPLE)));
    assert.deepEqual(names(p), ['A', 'A/B', 'A/B/C', 'A/B/C/D', 'A/E', 'A/E/H']);
    assert.deepEqual(column(p, 'time', 'inclusive'), [30, 11, 6, 1, 19, 9]);
  });

  it('takes names, kinds and locations from the frame, then attributes, then the node', async () => {
    const literal: LiteralNode[] = [
      {
        name: 'ignored because the frame has a name',
        frame: { name: 'main', type: 'function', file: '/src/main.c', line: 3 },
        attributes: { file: '/elsewhere.c', module: 'app' },
        metrics: { time: 1 },
        children: [
          { name: 'main.c:10', frame: { type: 'statement', file: '/src/main.c', line: '10' }, metrics: { time: 2 } },
          { frame: { name: 'Loop@main.c:12', type: 'loop', file: '/src/main.c', line: 12 }, metrics: { time: 3 } },
          { name: 'kernel', type: 'region', file: '/src/k.c', line: 7, module: 'libk.so', metrics: { time: 4 } },
          { frame: { type: 'statement', file: '/src/util.c', line: 5 }, metrics: { time: 5 } },
          {
            frame: { name: 'MPI_Send', type: 'function' },
            attributes: { file: '<unknown file>', line: 0, module: 'libmpi.so' },
            metrics: { time: 6 },
          },
        ],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    const t = p.tree;
    const row = (i: number) => [t.name(i), t.kind(i), t.file(i), t.line(i), t.module(i)];
    assert.deepEqual(row(0), ['main', NodeKind.Function, '/src/main.c', 3, 'app']);
    assert.deepEqual(row(1), ['main.c:10', NodeKind.Statement, '/src/main.c', 10, null]);
    assert.deepEqual(row(2), ['Loop@main.c:12', NodeKind.Loop, '/src/main.c', 12, null]);
    assert.deepEqual(row(3), ['kernel', NodeKind.Region, '/src/k.c', 7, 'libk.so']);
    assert.deepEqual(
      row(4),
      ['util.c:5', NodeKind.Statement, '/src/util.c', 5, null],
      'a statement frame without a name is named file:line',
    );
    assert.deepEqual(row(5), ['MPI_Send', NodeKind.Function, '<unknown file>', null, 'libmpi.so']);
    assert.equal(p.metrics[0]!.kind, 'exclusive');
    assert.equal(p.total(0), 21);
  });

  it('accepts the older spelling without "frame"', async () => {
    const literal = [
      {
        name: 'main',
        metrics: { time: 1, 'time (inc)': 3 },
        children: [{ name: 'work', metrics: { time: 2, 'time (inc)': 2 } }],
      },
    ];
    assert.ok(hatchetLiteralReader.sniff(textSample(JSON.stringify(literal))) > 0);
    const p = await readProfile(write(JSON.stringify(literal)));
    assert.deepEqual(names(p), ['main', 'main/work']);
    assert.deepEqual(column(p, 'time', 'inclusive'), [3, 2]);
  });

  it('derives inclusive values when the literal has none, or lacks some', async () => {
    const onlyExclusive = [
      {
        frame: { name: 'a' },
        metrics: { time: 1 },
        children: [
          { frame: { name: 'b' }, metrics: { time: 2 } },
          { frame: { name: 'c' }, metrics: {} },
        ],
      },
    ];
    let p = await hatchetLiteralReader.read(write(JSON.stringify(onlyExclusive)));
    assert.equal(p.metrics[0]!.kind, 'exclusive');
    assert.deepEqual(column(p, 'time', 'inclusive'), [3, 2, 0]);

    const someInclusive = [
      {
        frame: { name: 'a' },
        metrics: { time: 1 },
        children: [{ frame: { name: 'b' }, metrics: { time: 2, 'time (inc)': 2 } }],
      },
    ];
    p = await hatchetLiteralReader.read(write(JSON.stringify(someInclusive)));
    assert.equal(p.metrics[0]!.kind, 'both');
    assert.deepEqual(column(p, 'time', 'inclusive'), [3, 2]);

    const onlyInclusive = [
      {
        frame: { name: 'a' },
        metrics: { 'time (inc)': 10 },
        children: [{ frame: { name: 'b' }, metrics: { 'time (inc)': 4 } }],
      },
    ];
    p = await hatchetLiteralReader.read(write(JSON.stringify(onlyInclusive)));
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind]),
      [['time', 'inclusive']],
    );
    assert.deepEqual(column(p, 'time', 'exclusive'), [6, 4]);
    assertSubtreeSums(p);
  });

  it('keeps the inclusive values where exclusive ones do not add up, and the recorded exclusive beside them', async () => {
    // HPCToolkit-style function-scope exclusive: the parent's own value also holds its line child's.
    const literal = [
      {
        frame: { name: 'f' },
        metrics: { time: 5, 'time (inc)': 5 },
        children: [{ frame: { type: 'statement', file: 'f.c', line: 2 }, metrics: { time: 3, 'time (inc)': 3 } }],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind]),
      [
        ['time', 'inclusive'],
        [`time${RECORDED_EXCLUSIVE_SUFFIX}`, 'exclusive'],
      ],
    );
    assert.equal(p.primaryMetric, 0);
    assert.deepEqual(column(p, 'time', 'exclusive'), [2, 3]);
    assert.deepEqual(column(p, `time${RECORDED_EXCLUSIVE_SUFFIX}`, 'exclusive'), [5, 3]);
    assert.match(p.warnings.join('\n'), /"time" does not add up to "time \(inc\)" at 1 nodes/);
    assertSubtreeSums(p);
  });

  it('reads Caliper inclusive aggregates as inclusive, other columns by their names', async () => {
    const literal = [
      {
        frame: { name: 'main', type: 'region' },
        metrics: { 'avg#inclusive#sum#time.duration': 4, 'Bytes/Rep': 10, 'REALTIME (sec)': 2 },
        children: [
          {
            frame: { name: 'solve', type: 'region' },
            metrics: { 'avg#inclusive#sum#time.duration': 3, 'Bytes/Rep': 1, 'REALTIME (sec)': 1 },
          },
        ],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind, m.unit, m.aggregation]),
      [
        ['avg#inclusive#sum#time.duration', 'inclusive', '', 'avg'],
        ['Bytes/Rep', 'exclusive', '', 'sum'],
        ['REALTIME (sec)', 'exclusive', 's', 'sum'],
      ],
    );
    assert.equal(p.metrics[p.primaryMetric]!.name, 'avg#inclusive#sum#time.duration');
    assert.deepEqual(column(p, 'avg#inclusive#sum#time.duration', 'inclusive'), [4, 3]);
  });

  it('folds a node listed again under another parent (to_literal of a call graph) into its first occurrence', async () => {
    const shared = {
      frame: { name: 'util', type: 'function' },
      metrics: { time: 2, 'time (inc)': 2, _hatchet_nid: 3 },
    };
    const literal = [
      {
        frame: { name: 'main' },
        metrics: { time: 1, 'time (inc)': 7, _hatchet_nid: 0 },
        children: [
          { frame: { name: 'a' }, metrics: { time: 1, 'time (inc)': 3, _hatchet_nid: 1 }, children: [shared] },
          {
            frame: { name: 'b' },
            metrics: { time: 1, 'time (inc)': 3, _hatchet_nid: 2 },
            children: [
              {
                ...shared,
                children: [{ frame: { name: 'leaf' }, metrics: { time: 1, 'time (inc)': 1, _hatchet_nid: 4 } }],
              },
            ],
          },
        ],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    // The reference's child joins `util` after `b` in node order (parents still precede children).
    assert.deepEqual(names(p), ['main', 'main/a', 'main/a/util', 'main/b', 'main/a/util/leaf']);
    assert.ok(!p.metrics.some(m => m.sourceKeys.includes('_hatchet_nid')), '_hatchet_nid is an id, not a metric');
    // Values count once; `b`'s inclusive time still holds the call of `util` it no longer has as a child.
    assert.deepEqual(column(p, `time${RECORDED_EXCLUSIVE_SUFFIX}`, 'exclusive'), [1, 1, 2, 1, 1]);
    assert.deepEqual(column(p, 'time', 'inclusive'), [7, 3, 2, 3, 1]);
    assert.match(p.warnings.join('\n'), /1 node references .* folded/);
  });

  it('reads recursion, non-ASCII names and nodes without values', async () => {
    const literal = [
      {
        frame: { name: 'fib' },
        metrics: { time: 1 },
        children: [
          {
            frame: { name: 'fib' },
            metrics: { time: 1 },
            children: [
              { frame: { name: 'fib' }, metrics: {} },
              { frame: { name: 'Ñandú→計算 🚀', type: 'function' }, metrics: { time: 2 } },
            ],
          },
        ],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    assert.deepEqual(names(p), ['fib', 'fib/fib', 'fib/fib/fib', 'fib/fib/Ñandú→計算 🚀']);
    assert.deepEqual(column(p, 'time', 'inclusive'), [4, 3, 0, 2]);
  });

  it('reads a 100 000-deep chain without recursion', async () => {
    const depth = 100_000;
    const open = '{"frame": {"name": "f", "type": "function"}, "metrics": {"time": 1, "time (inc)": ';
    const parts: string[] = ['['];
    for (let d = 0; d < depth; d++) parts.push(`${open}${depth - d}}, "children": [`);
    parts.push(']}'.repeat(depth), ']');
    const p = await hatchetLiteralReader.read(write(parts.join('')));
    assert.equal(p.tree.size, depth);
    assert.equal(p.tree.depth(depth - 1), depth - 1);
    assert.equal(p.metrics[0]!.kind, 'both');
    assert.equal(p.total(0), depth);
  });

  it('reads gzip-compressed literals, sniffed by content', async () => {
    const path = write(gzipSync(JSON.stringify(EXAMPLE)), 'literal.json.gz');
    const p = await readProfile(path);
    assert.equal(p.format, 'hatchet-literal');
    assert.deepEqual(column(p, 'time', 'inclusive'), [30, 11, 6, 1, 19, 9]);
  });

  it('reads NaN and Infinity as Python writes them as missing values', async () => {
    const text = JSON.stringify(EXAMPLE)
      .replace('"time":10', '"time":NaN')
      .replace('"time (inc)":9', '"time (inc)":Infinity');
    assert.notEqual(text, JSON.stringify(EXAMPLE));
    const progress: number[] = [];
    const p = await hatchetLiteralReader.read(write(text), { onProgress: f => progress.push(f) });
    assert.deepEqual(
      column(p, 'time', 'exclusive'),
      [0, 5, 5, 1, 10, 9],
      'the missing values are derived from the tree',
    );
    assert.match(p.warnings.join('\n'), /2 NaN\/Infinity values/);
    assert.ok(
      progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1]!)),
      `progress ${progress}`,
    );
    assert.equal(progress.at(-1), 1);
  });

  it('warns about metric columns that hold text', async () => {
    const literal = [
      {
        frame: { name: 'a' },
        metrics: { time: 1, slot: '79', mixed: 2 },
        children: [{ frame: { name: 'b' }, metrics: { time: 1, slot: '80', mixed: 'n/a' } }],
      },
    ];
    const p = await hatchetLiteralReader.read(write(JSON.stringify(literal)));
    assert.deepEqual(
      p.metrics.map(m => m.name),
      ['time', 'mixed'],
    );
    assert.match(p.warnings.join('\n'), /"slot" holds no numbers/);
    assert.match(p.warnings.join('\n'), /"mixed": 1 values that are not numbers/);
    const huge = await hatchetLiteralReader.read(
      write('[{"frame": {"name": "a"}, "metrics": {"time": 1e400, "count": 2}}]'),
    );
    assert.deepEqual(column(huge, 'count', 'exclusive'), [2]);
    assert.match(huge.warnings.join('\n'), /1 metric values too large for a double/);
  });

  it('sniffs literals by content only', () => {
    assert.equal(hatchetLiteralReader.sniff(textSample(JSON.stringify(EXAMPLE))), 0.9);
    assert.equal(hatchetLiteralReader.sniff(textSample(`\uFEFF\n  ${sortedJson(EXAMPLE)}`)), 0.9);
    assert.equal(
      hatchetLiteralReader.sniff(textSample(JSON.stringify(EXAMPLE).slice(0, 60))),
      0.9,
      'a head cut early still shows frame and metrics',
    );
    assert.equal(
      hatchetLiteralReader.sniff(textSample('[{"name": "x", "ph": "X", "ts": 1, "dur": 2}]')),
      0,
      'Chrome trace events are not literals',
    );
    assert.equal(hatchetLiteralReader.sniff(textSample('{"data": [], "columns": [], "nodes": []}')), 0);
    assert.equal(hatchetLiteralReader.sniff(textSample('', { isDirectory: true, entries: ['a.json'] })), 0);
    assert.equal(
      caliperJsonSplitReader.sniff(textSample(JSON.stringify(EXAMPLE))),
      0,
      'the Caliper reader leaves literals alone',
    );
  });

  it('names the file and the reason for bad input', async () => {
    const cases: [string, RegExp][] = [
      ['[]', /the list of root nodes is empty/],
      ['{"frame": {"name": "a"}, "metrics": {}}', /the top level is an object/],
      [
        '[{"frame": {"name": "a"}, "metrics": {"time": 1}, "children": {"frame": {}}}]',
        /node 0 \("a"\): "children" must be a list/,
      ],
      ['[{"metrics": {"time": 1}}]', /node 0 \(\?\) has neither "frame" nor "name"/],
      ['[{"frame": {"name": "a"}, "metrics": [1, 2]}]', /"metrics" must be an object, not a list/],
      ['[{"frame": {"name": "a"}, "metrics": {"time": 1}}, 7]', /an element of the root list is not a node object/],
      ['[{"frame": {"name": "a"}, "metrics": {"label": "x"}}]', /no metric has numeric values \(metrics: label\)/],
      ['[{"frame": {"name": "a"}}]', /no node has "metrics"/],
      [JSON.stringify(EXAMPLE).slice(0, 150), /not valid JSON \(unexpected end of input/],
      ['[{"frame": {"name": "a"}, "metrics": {"time": 1e}}]', /not valid JSON \(unexpected character/],
    ];
    for (const [text, reason] of cases) {
      const path = write(text);
      await assert.rejects(hatchetLiteralReader.read(path), (e: Error) => {
        assert.ok(e instanceof ProfileReadError, `${text}: ${e.stack}`);
        assert.ok(e.message.startsWith(`${path}: `), `names the file: ${e.message}`);
        assert.match(e.message, reason, text);
        return true;
      });
    }
  });

  it(
    'ends every mutation of a valid literal in a read or a ProfileReadError, quickly',
    { timeout: 120_000 },
    async () => {
      const base = Buffer.from(
        JSON.stringify([
          ...EXAMPLE,
          {
            name: 'solo.c:4',
            frame: { type: 'statement', file: 'solo.c', line: 4 },
            metrics: { time: NaN, _hatchet_nid: 9 },
            attributes: { module: 'm' },
          },
        ]).replace('null', 'NaN'),
      );
      const mutations: Buffer[] = [];
      for (let n = 0; n < base.length; n += 3) mutations.push(base.subarray(0, n));
      for (let i = 0; i < base.length; i += 3) {
        for (const b of [0x22, 0x7b, 0x5d, 0x30, 0x4e, base[i]! ^ 0x20, 0xff]) {
          const m = Buffer.from(base);
          m[i] = b;
          mutations.push(m);
        }
      }
      for (const part of ['"frame"', '"metrics"', '"children"', '"name"', '"time"', '{', ']', ':']) {
        const at = base.indexOf(part, 20);
        mutations.push(Buffer.concat([base.subarray(0, at), base.subarray(at + part.length)]));
      }
      mutations.push(gzipSync(base).subarray(0, 40));
      let ok = 0;
      for (const [k, m] of mutations.entries()) {
        const path = write(m, 'mutation.json');
        const started = Date.now();
        try {
          const p = await hatchetLiteralReader.read(path);
          assertSubtreeSums(p);
          ok++;
        } catch (e) {
          assert.ok(
            e instanceof ProfileReadError,
            `mutation ${k} (${JSON.stringify(m.toString('latin1').slice(0, 80))}…): ${(e as Error).stack}`,
          );
        }
        assert.ok(Date.now() - started < 2000, `mutation ${k} took ${Date.now() - started} ms`);
      }
      assert.ok(ok > 0 && ok < mutations.length, `${ok} of ${mutations.length} mutations read`);
    },
  );

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      hatchetLiteralReader.read(write(JSON.stringify(EXAMPLE)), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Conformance: Hatchet's per-node values for every shared dataset, written as a literal
// ---------------------------------------------------------------------------------------------

/** Oracle files of every format (a literal can hold any GraphFrame). */
function allOracleCases(): { name: string; oracle: Oracle }[] {
  const root = sharedPath('oracle');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter(f => statSync(join(root, f)).isDirectory())
    .sort()
    .flatMap(format => oracleCases(format).map(c => ({ name: `${format}/${c.name}`, oracle: c.oracle })));
}

/**
 * What Hatchet's `to_literal` writes for the graph the oracle describes: frame, name, the node's
 * metrics (Hatchet's values summed over ranks, i.e. one "rank" per node) and `_hatchet_nid`, nested
 * by first parent. In a call graph (gprof2dot) a further parent edge becomes a bare reference by
 * `_hatchet_nid` when that parent comes after the node in document order (to_literal writes the
 * node in full where it meets it first, so an earlier parent would change the node's first path,
 * which the oracle's `path` does not follow); the other edges are left out. Nodes without a
 * DataFrame row (gprof2dot's bogus `"\n"` root, oracle README caveat 23) cannot be written by
 * `to_literal` and are left out, here and in the oracle the result is compared with.
 */
function literalFromOracle(oracle: Oracle): { literal: LiteralNode[]; oracle: Oracle; references: number } {
  const rowless = new Set(oracle.nodes.filter(n => !n.metrics).map(n => n.nid));
  const nodes = oracle.nodes.filter(n => !rowless.has(n.nid));
  const dict = new Map<number, LiteralNode>();
  const position = new Map<number, number>();
  const roots: LiteralNode[] = [];
  for (const n of nodes) {
    const metrics: Record<string, unknown> = { ...n.metrics, _hatchet_nid: n.nid };
    const d: LiteralNode = { name: n.name, frame: n.frame ?? { name: n.name, type: n.type }, metrics };
    if (typeof n.module === 'string') d.attributes = { module: n.module };
    dict.set(n.nid, d);
  }
  for (const n of nodes) {
    const parent = n.parent_nid as number | null;
    if (parent === null || parent === undefined) roots.push(dict.get(n.nid)!);
    else (dict.get(parent)!.children ??= []).push(dict.get(n.nid)!);
  }
  // Document (pre-)order of the nested dicts, to place references after what they refer to.
  const stack = [...roots].reverse();
  for (let k = 0; stack.length; k++) {
    const d = stack.pop()!;
    position.set(d.metrics!['_hatchet_nid'] as number, k);
    stack.push(...[...(d.children ?? [])].reverse());
  }
  let references = 0;
  for (const n of nodes) {
    const parents = [...((n['parents'] as number[] | undefined) ?? [])];
    parents.splice(parents.indexOf(n.parent_nid as number), 1);
    for (const p of parents) {
      if (rowless.has(p) || position.get(p)! < position.get(n.nid)!) continue;
      const home = dict.get(n.nid)!;
      (dict.get(p)!.children ??= []).push({ name: home.name, frame: home.frame, metrics: home.metrics });
      references++;
    }
  }
  const rowlessRoots = oracle.nodes.filter(n => rowless.has(n.nid) && n.parent_nid === null).length;
  return {
    literal: roots,
    oracle: { ...oracle, nodes, graph: { ...oracle.graph, n_roots: oracle.graph.n_roots - rowlessRoots } },
    references,
  };
}

/**
 * A Hatchet column in our model. `X (inc)` is the inclusive side of `X`; a column our reader found
 * to break the subtree sums (HPCToolkit's function-scope exclusive, caveats 6 and 8; TAU's and
 * gprof2dot's partial trees, caveats 19 and 23) is the recorded-exclusive metric, since our `X`
 * keeps inclusive values and derives exclusive ones. Caliper's `…#inclusive#…` columns are inclusive.
 */
function literalColumnValues(profile: Profile, column: string): Float64Array | null {
  if (column.endsWith(' (inc)')) {
    const m = profile.metricIndex(column.slice(0, -' (inc)'.length));
    return m >= 0 ? profile.inclusiveTotals(m) : null;
  }
  const recorded = profile.metricIndex(column + RECORDED_EXCLUSIVE_SUFFIX);
  if (recorded >= 0) return profile.exclusiveTotals(recorded);
  const m = profile.metricIndex(column);
  if (m < 0) return null; // a text column (e.g. `min#min#aggregate.slot`), which has no numeric values to compare
  return profile.metrics[m]!.kind === 'inclusive' ? profile.inclusiveTotals(m) : profile.exclusiveTotals(m);
}

/** Node identity: name path plus the frame's file and line, since name paths repeat (caveat 4). */
function locationKey(path: string[], file: unknown, line: unknown): string {
  const l = typeof line === 'string' && /^\d+$/.test(line) ? Number(line) : line;
  return JSON.stringify([
    path,
    typeof file === 'string' && file !== '' ? file : null,
    typeof l === 'number' && l > 0 ? l : null,
  ]);
}

describe(
  'Hatchet literal reader against Hatchet (oracle graphs written as literals)',
  { skip: skipUnlessShared('oracle') },
  () => {
    for (const { name, oracle: full } of allOracleCases()) {
      it(name, async () => {
        const { literal, oracle, references } = literalFromOracle(full);
        for (const [style, text] of [
          ['to_literal order', JSON.stringify(literal)],
          ['sorted keys', sortedJson(literal)],
        ] as const) {
          const path = write(text, 'oracle-literal.json');
          const profile = await hatchetLiteralReader.read(path);
          // A literal holds one value per node: Hatchet's per-node sums over ranks and threads.
          checkAgainstOracle(profile, oracle, {
            values: literalColumnValues,
            contexts: 1,
            ourKey: (p, i) => locationKey(p.tree.path(i), p.tree.file(i), p.tree.line(i)),
            oracleKey: (o, n) => locationKey(oraclePath(o, n), n.frame?.['file'], n.frame?.['line']),
          });
          assertSubtreeSums(profile);
          if (references > 0)
            assert.match(profile.warnings.join('\n'), new RegExp(`${references} node references`), style);
        }
      });
    }
  },
);
