import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { checkAgainstOracle, closeTo, oracleCases } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { REPO_ROOT, sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { sampleFile } from './file-sample';
import { gprof2dotDotReader, parseEdgeLabel, parseNodeLabel } from './gprof2dot-dot';
import { chooseFormat, readProfile } from './index';
import { expectReadError } from '../../../test/support/read-errors';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'call-graph');
const fixture = (name: string) => join(FIXTURES, name);

/**
 * The function level of a profile's call graph as a profile of its own: one node per function,
 * named by its DOT node id. This is what Hatchet's `from_gprof_dot` returns (oracle README caveats
 * 21–23): a node per DOT node, named by the id, with the label's self % as `time` and total % as
 * `time (inc)`. Hatchet links the nodes into the DAG of the edges; the checker matches nodes by
 * identity, so a flat list serves.
 */
function functionLevel(p: Profile): Profile {
  const g = p.callGraph!;
  const b = new ProfileBuilder('function level', p.path);
  const m = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: [],
    unit: '%',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  for (let f = 0; f < g.functions.id.length; f++) {
    const n = b.tree.add(-1, p.tree.strings.get(g.functions.id[f]!), NodeKind.Function);
    b.addExclusive(m, n, b.context({}), g.functions.self[0]![f]!);
  }
  return b.build(m);
}

/** Σ exclusive of the unfolded tree per function (name and module: DOT ids do not reach the tree). */
function exclusiveByFunction(p: Profile): Map<string, number> {
  const out = new Map<string, number>();
  const e = p.exclusiveTotals(0);
  for (let i = 0; i < p.tree.size; i++) {
    const k = `${p.tree.module(i)}|${p.tree.name(i)}`;
    out.set(k, (out.get(k) ?? 0) + e[i]!);
  }
  return out;
}

/** Each function's self % comes back from the unfolded tree (the unfolding conserves self costs). */
function checkConservation(p: Profile): void {
  const g = p.callGraph!;
  const s = (id: number) => (id === 0 ? null : p.tree.strings.get(id));
  const mine = exclusiveByFunction(p);
  for (let f = 0; f < g.functions.id.length; f++) {
    const self = g.functions.self[0]![f]!;
    const k = `${s(g.functions.module[f]!)}|${s(g.functions.name[f]!)}`;
    closeTo(mine.get(k) ?? 0, self, `Σ exclusive of ${k} in the tree vs its self %`);
  }
}

describe('gprof2dot DOT reader against Hatchet', { skip: skipUnlessShared('oracle', 'gprof2dot-dot') }, () => {
  for (const { name, oracle, dataPath } of oracleCases('gprof2dot-dot')) {
    it(name, async () => {
      const profile = await gprof2dotDotReader.read(dataPath);
      const g = profile.callGraph!;
      const fl = functionLevel(profile);
      // Hatchet's per-node values are our function-level values, node for node (keyed by DOT id). Its
      // bogus root "\n" (caveat 23, a pydot artefact) has no DataFrame row and no values: it is left
      // out, as the node count n_nodes_in_dataframe does. The root count is not compared: Hatchet's
      // roots are those of its DAG, plus "\n".
      const real = { ...oracle, nodes: oracle.nodes.filter(n => !(n.name === '\\n' && n.metrics === null)) };
      assert.equal(oracle.nodes.length - real.nodes.length, 1, 'one bogus "\\n" node');
      checkAgainstOracle(fl, real, {
        values: (_, column) =>
          column === 'time' ? g.functions.self[0]! : column === 'time (inc)' ? g.functions.total[0]! : null,
        ourKey: (p, i) => p.tree.name(i),
        oracleKey: (_, n) => n.name,
        includeNode: () => true,
        contexts: 1,
      });
      // Modules come from 5-line labels as in Hatchet; names are the label's, not the DOT id (caveat 21).
      const byId = new Map(Array.from(g.functions.id, (id, f) => [profile.tree.strings.get(id), f]));
      for (const n of oracle.nodes) {
        const f = byId.get(n.name);
        if (f === undefined) {
          assert.equal(n.name, '\\n', 'only the pydot artefact is missing');
          continue;
        }
        const module = g.functions.module[f]! ? profile.tree.strings.get(g.functions.module[f]!) : null;
        assert.equal(module, n.module ?? null, `module of ${n.name}`);
      }
      // The unfolded tree: Σ exclusive is Hatchet's Σ time (each function's self % once), and every
      // function's contexts add up to its self %.
      closeTo(
        profile.total(0),
        oracle.totals.sum_exclusive_over_all_nodes['time']!,
        'Σ exclusive of the unfolded tree',
      );
      checkConservation(profile);
    });
  }

  it("callgrind-cpi: DOT ids are the function names, so our names equal Hatchet's there", async () => {
    const p = await gprof2dotDotReader.read(
      sharedPath('data', 'gprof2dot-dot', 'callgrind-cpi', 'callgrind.dot.64042.0.1'),
    );
    const g = p.callGraph!;
    for (let f = 0; f < g.functions.id.length; f++) assert.equal(g.functions.name[f], g.functions.id[f]);
  });

  it('gprof-tmpcc: numeric ids, names from the labels', async () => {
    const p = await gprof2dotDotReader.read(sharedPath('data', 'gprof2dot-dot', 'gprof-tmpcc', 'gprof-profile.dot'));
    const names = new Set(Array.from({ length: p.tree.size }, (_, i) => p.tree.name(i)));
    assert.ok(names.has('sum(std::vector<double, std::allocator<double> > const&)'));
    assert.ok([...names].every(n => !/^\d+$/.test(n)));
  });
});

describe('gprof2dot DOT reader: shared files', { skip: skipUnlessShared('data', 'gprof2dot-dot') }, () => {
  for (const rel of sharedFiles(join('data', 'gprof2dot-dot'), '')) {
    it(`${rel} is detected and inspected`, async () => {
      const p = await readProfile(sharedPath('data', 'gprof2dot-dot', rel));
      assert.equal(p.format, 'gprof2dot-dot');
      JSON.stringify(inspectReport(p));
    });
  }
});

describe('gprof2dot DOT reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-dot-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const pathsOf = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(' → '));

  it('parses node and edge labels', () => {
    assert.deepEqual(parseNodeLabel('libc.so\\nmain\\n97.95%\\n(0.00%)\\n1×'), {
      module: 'libc.so',
      name: 'main',
      total: 97.95,
      self: 0,
      calls: 1,
    });
    assert.deepEqual(parseNodeLabel('f\\n2.00%\\n(1.00%)\\n3×'), {
      module: null,
      name: 'f',
      total: 2,
      self: 1,
      calls: 3,
    });
    assert.deepEqual(parseNodeLabel('main\\n100.00%\\n(0.00%)'), {
      module: null,
      name: 'main',
      total: 100,
      self: 0,
      calls: NaN,
    });
    assert.equal(parseNodeLabel('just a box'), null);
    assert.equal(parseNodeLabel('f\\n2.00%\\nsomething else'), null);
    assert.deepEqual(parseEdgeLabel('97.94%\\n1×'), { cost: 97.94, calls: 1 });
    assert.deepEqual(parseEdgeLabel('501×'), { cost: NaN, calls: 501 });
    assert.equal(parseEdgeLabel('hello'), null);
  });

  for (const name of ['gprof2dot-gprof.dot', 'gprof2dot-callgrind.dot']) {
    it(`${name}: the unfolded tree holds every function's total, its self % conserved`, async () => {
      const p = await readProfile(fixture(name));
      assert.equal(p.format, 'gprof2dot-dot');
      assert.deepEqual(
        p.metrics.map(m => [m.name, m.unit]),
        [['time', '%']],
      );
      const g = p.callGraph!;
      // The hand-written fixtures are consistent (total = self + Σ out-edge %), so every context's
      // subtree holds its share of the function's total, and a root holds all of it.
      for (const r of p.tree.roots()) {
        const f = Array.from(g.functions.name).findIndex(n => p.tree.strings.get(n) === p.tree.name(r));
        closeTo(p.inclusiveTotals(0)[r]!, g.functions.total[0]![f]!, `root ${p.tree.name(r)}`);
      }
      closeTo(p.total(0), 100, 'Σ self % of the run');
      checkConservation(p);
    });
  }

  it('unfolds recursion and the is_even ⇄ is_odd cycle without repeating a function on a path', async () => {
    const p = await readProfile(fixture('gprof2dot-gprof.dot'));
    const paths = pathsOf(p);
    assert.ok(paths.includes('main → is_even → is_odd → busy') && paths.includes('main → is_even → busy'));
    assert.ok(
      paths.includes('main → run_rounds → compute_a → accumulate') &&
        paths.includes('main → run_rounds → compute_b → accumulate'),
    );
    assert.ok(!paths.some(x => x.includes('fib')), 'fib has no time (0.00 %)');
    const q = await readProfile(fixture('gprof2dot-callgrind.dot'));
    assert.ok(
      pathsOf(q).includes("(below main) → main → fib → fib'2"),
      "gprof2dot keeps callgrind's recursion levels as functions",
    );
    assert.equal(q.tree.module(0), 'libc.so.6');
  });

  it('reads non-ASCII names, 3-line labels, defaults and gzip', async () => {
    const text = [
      'digraph {',
      '\tnode [fontname=Arial];',
      '\t"größe" [label="größe\\n100.00%\\n(40.00%)"];',
      '\t"größe" -> "naïve" [label="60.00%\\n3×"];',
      '\t"naïve" [label="naïve\\n60.00%\\n(60.00%)\\n3×"];',
      '}',
    ].join('\n');
    const path = write('utf8.dot.gz', gzipSync(text));
    assert.equal(chooseFormat(await sampleFile(path))?.id, gprof2dotDotReader.id);
    const p = await readProfile(path);
    assert.deepEqual(pathsOf(p), ['größe', 'größe → naïve']);
    assert.deepEqual([...p.inclusiveTotals(0)], [100, 60]);
  });

  it('reads an empty graph', async () => {
    const p = await gprof2dotDotReader.read(write('empty.dot', 'digraph {\n\tgraph [fontname=Arial];\n}\n'));
    assert.equal(p.tree.size, 0);
  });

  it('sniffs gprof2dot graphs by content, not every DOT file', async () => {
    for (const name of ['gprof2dot-gprof.dot', 'gprof2dot-callgrind.dot'])
      assert.equal(chooseFormat(await sampleFile(fixture(name)))?.id, gprof2dotDotReader.id, name);
    assert.equal(gprof2dotDotReader.sniff(await sampleFile(write('plain.dot', 'digraph { a -> b [label="x"] }'))), 0);
    assert.equal(gprof2dotDotReader.sniff(await sampleFile(fixture('gprof.txt'))), 0);
  });

  it('names the file and the reason for bad input', async () => {
    const valid = readFileSync(fixture('gprof2dot-gprof.dot'), 'utf8');
    const cases: [string, string, RegExp][] = [
      [
        'label.dot',
        valid.replace('label="busy\\n5.08%\\n(5.08%)\\n1004×"', 'label="busy"'),
        /line \d+: the label of node "8" is not gprof2dot's/,
      ],
      [
        'edge.dot',
        valid.replace('label="52.54%\\n150000×"', 'label="lots"'),
        /line \d+: the label of edge "3" -> "4" is not gprof2dot's/,
      ],
      [
        'truncated.dot',
        valid.slice(0, valid.length - 10),
        /not valid DOT \(line \d+: the file ends inside a quoted string\)|before the graph's closing/,
      ],
      ['undirected.dot', 'graph {\n a [label="a\\n1.00%\\n(1.00%)\\n1×"]\n}', /an undirected graph/],
      [
        'twice.dot',
        'digraph {\n a [label="a\\n1.00%\\n(1.00%)\\n1×"]\n a [label="a\\n1.00%\\n(1.00%)\\n1×"]\n}',
        /node "a" is labelled twice/,
      ],
      ['plain.dot', 'digraph { a -> b }', /no node has a gprof2dot label/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(name, text);
      await expectReadError(gprof2dotDotReader.read(path), path, reason, name);
    }
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      gprof2dotDotReader.read(fixture('gprof2dot-gprof.dot'), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('survives damaged files: each one is read or rejected with a ProfileReadError, quickly', async () => {
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(readFileSync(fixture('gprof2dot-gprof.dot')), { seed: 23 })) {
      counts[await readOrReject(write('mutant.dot', bytes), gprof2dotDotReader, name)]++;
    }
    assert.ok(counts.rejected > 50 && counts.read > 20, JSON.stringify(counts));
  });
});
