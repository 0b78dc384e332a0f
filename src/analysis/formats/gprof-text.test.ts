import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { closeTo } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { REPO_ROOT, sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { sampleFile } from './file-sample';
import { gprofTextReader, parseSymbol } from './gprof-text';
import { chooseFormat, readProfile } from './index';
import { ProfileReadError } from './reader';
import { exclusiveByFunction } from '../model/test-profiles';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'call-graph');
const fixture = (name: string) => join(FIXTURES, name);

/**
 * The file's own flat profile, read independently of the reader: self seconds per function (line
 * symbols of `gprof -l` summed into their function).
 */
function flatProfile(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const end = text.search(/^\s*Call graph/m);
  const flat = text.slice(text.indexOf('Flat profile:'), end < 0 ? undefined : end);
  for (const line of flat.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+([\d.]+)(?:\s+\d+\s+[\d.]+\s+[\d.]+)?\s+(\S.*?)\s*$/.exec(line);
    if (!m) continue;
    const fn = m[2]!.replace(/ \([^()]*:\d+ @ [0-9a-f]+\)$/, '');
    out.set(fn, (out.get(fn) ?? 0) + Number(m[1]));
  }
  return out;
}

/** The flat profile's total and every function's self time are the tree's (conservation of the unfolding). */
function checkAgainstFlatProfile(p: Profile, text: string): void {
  const flat = flatProfile(text);
  const sum = [...flat.values()].reduce((s, v) => s + v, 0);
  closeTo(p.total(0), sum, 'tree total vs the flat profile');
  closeTo(p.metadata['gprof.flatProfileTotal'] as number, sum, 'metadata');
  const mine = exclusiveByFunction(p);
  for (const [fn, self] of flat) closeTo(mine.get(fn) ?? 0, self, `self time of ${fn}`);
  for (let i = 0; i < p.tree.size; i++) {
    const fns: string[] = [];
    for (let n = i; n !== -1; n = p.tree.parent(n)) if (p.tree.kind(n) === NodeKind.Function) fns.push(p.tree.name(n));
    assert.equal(new Set(fns).size, fns.length, `a function appears twice on ${p.tree.path(i).join(' → ')}`);
  }
}

const lineOf = (file: string, code: string) =>
  readFileSync(fixture(file), 'utf8')
    .split('\n')
    .findIndex(l => l.includes(code)) + 1;
const pathsOf = (p: Profile) => new Set(Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(' → ')));

describe('gprof text reader: fixtures written by gprof from test/fixtures/call-graph', () => {
  for (const name of ['gprof.txt', 'gprof-brief.txt', 'gprof-lines.txt']) {
    it(`${name}: totals and self times equal the file's flat profile`, async () => {
      const p = await readProfile(fixture(name));
      assert.equal(p.format, 'gprof-text');
      assert.deepEqual(
        p.metrics.map(m => [m.name, m.unit, m.kind]),
        [['time', 's', 'exclusive']],
      );
      checkAgainstFlatProfile(p, readFileSync(fixture(name), 'utf8'));
      assert.deepEqual(
        p.tree.roots().map(r => p.tree.name(r)),
        ['main'],
      );
    });
  }

  it('unfolds the shared callee under both callers, by their share of its time', async () => {
    const p = await readProfile(fixture('gprof.txt'));
    const paths = pathsOf(p);
    for (const caller of ['compute_a', 'compute_b'])
      assert.ok(paths.has(`main → run_rounds → ${caller} → accumulate`), caller);
    const g = p.callGraph!;
    const name = (f: number) => p.tree.strings.get(g.functions.name[f]!);
    const arcs = Array.from(g.arcs.caller, (c, a) => `${name(c)}→${name(g.arcs.callee[a]!)} ${g.arcs.calls[a]}`);
    assert.ok(
      arcs.includes('compute_a→accumulate 50000') && arcs.includes('compute_b→accumulate 150000'),
      arcs.join(', '),
    );
    assert.ok(
      arcs.some(a => /^fib→fib \d+$/.test(a)),
      'the recursive arc of fib is kept in the call graph',
    );
    // The child lines of accumulate's callers split its time: their shares add up to its self time.
    const accumulate = [...paths].filter(x => x.endsWith('→ accumulate'));
    assert.equal(accumulate.length, 2);
  });

  it('keeps the gprof cycle (is_even ⇄ is_odd) on one path below main', async () => {
    const p = await readProfile(fixture('gprof.txt'));
    assert.equal(p.metadata['gprof.cycles'], 1);
    assert.ok(pathsOf(p).has('main → is_even → is_odd → busy'));
  });

  it('reads the same tree from the default and the brief output', async () => {
    const [full, brief] = await Promise.all([
      readProfile(fixture('gprof.txt')),
      readProfile(fixture('gprof-brief.txt')),
    ]);
    assert.deepEqual([...pathsOf(full)], [...pathsOf(brief)]);
    assert.deepEqual([...full.exclusiveTotals(0)], [...brief.exclusiveTotals(0)]);
  });

  it('gives line-by-line costs as statements and call sites as call lines (-l)', async () => {
    const p = await readProfile(fixture('gprof-lines.txt'));
    assert.equal(p.metadata['gprof.output'], 'line by line (-l)');
    const t = p.tree;
    const statements = Array.from({ length: t.size }, (_, i) => i).filter(i => t.kind(i) === NodeKind.Statement);
    assert.ok(statements.length > 0);
    for (const i of statements) {
      assert.match(t.file(i)!, /^(kernels|recursion|main)\.c$/);
      assert.equal(t.name(i), `${t.file(i)}:${t.line(i)}`);
      assert.ok(p.exclusiveTotals(0)[i]! > 0, 'statements without time are left out');
    }
    const underA = Array.from({ length: t.size }, (_, i) => i).find(i =>
      t.path(i).join(' → ').endsWith('compute_a → accumulate'),
    )!;
    assert.equal(t.callLine(underA), lineOf('kernels.c', 'return accumulate(buffer, N, 1.0);'));
    const entry = /^.*\s\d+\s+[\d.]+\s+[\d.]+\s+accumulate \(kernels\.c:(\d+) @/m.exec(
      readFileSync(fixture('gprof-lines.txt'), 'utf8'),
    )!;
    assert.equal(t.line(underA), Number(entry[1]), 'the function sits at its entry line (the symbol with the calls)');
  });

  it('reads gzip-compressed output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-gprof-'));
    const path = join(dir, 'gprof.txt.gz');
    writeFileSync(path, gzipSync(readFileSync(fixture('gprof-brief.txt'))));
    assert.equal(chooseFormat(await sampleFile(path))?.id, gprofTextReader.id);
    const [p, q] = [await readProfile(path), await readProfile(fixture('gprof-brief.txt'))];
    assert.deepEqual([...p.exclusiveTotals(0)], [...q.exclusiveTotals(0)]);
  });
});

describe('gprof text reader: shared gprof outputs', { skip: skipUnlessShared('data', 'gprof') }, () => {
  for (const rel of sharedFiles(join('data', 'gprof'), '.prof')) {
    it(rel, async () => {
      const path = sharedPath('data', 'gprof', rel);
      const text = readFileSync(path, 'utf8');
      const p = await readProfile(path);
      assert.equal(p.format, 'gprof-text');
      checkAgainstFlatProfile(p, text);
      assert.equal(p.metadata['gprof.cycles'], (text.match(/<cycle \d+ as a whole>/g) ?? []).length);
      assert.equal(p.metadata['gprof.callGraphTotal'], Number(/^granularity: .* of ([\d.]+) seconds/m.exec(text)![1]));
      // Hatchet has no gprof reader (oracle README): the flat profile above is the reference.
      JSON.stringify(inspectReport(p));
    });
  }

  it('gnu2: the flat-profile time of mcount (no call-graph entry) becomes roots of its own', async () => {
    const p = await readProfile(sharedPath('data', 'gprof', 'gnu2', 'gnu2.prof'));
    assert.deepEqual(
      p.tree
        .roots()
        .map(r => p.tree.name(r))
        .sort(),
      ['__libc_start_main', '__mcount_internal', 'mcount'],
    );
    assert.match(
      p.warnings.join('\n'),
      /0.64 seconds of the flat profile are in functions without call-graph arcs \(__mcount_internal, mcount\)/,
    );
    closeTo(
      p.inclusiveTotals(0)[p.tree.roots().find(r => p.tree.name(r) === '__libc_start_main')!]!,
      p.metadata['gprof.callGraphTotal'] as number,
      "the call graph's total, within gprof's rounding",
      0.01,
    );
  });
});

describe('gprof text reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-gprof-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const brief = readFileSync(fixture('gprof-brief.txt'), 'utf8');

  it('parses symbols: cycles, line-by-line locations, C++ names', () => {
    assert.deepEqual(parseSymbol('is_even <cycle 1>'), { fn: 'is_even', file: null, line: 0 });
    assert.deepEqual(parseSymbol('accumulate (kernels.c:12 @ 11f5)'), {
      fn: 'accumulate',
      file: 'kernels.c',
      line: 12,
    });
    assert.deepEqual(parseSymbol('std::vector<int, std::allocator<int> >::size() const'), {
      fn: 'std::vector<int, std::allocator<int> >::size() const',
      file: null,
      line: 0,
    });
  });

  it('reads an empty profile', async () => {
    const p = await gprofTextReader.read(
      write(
        'empty.txt',
        'Flat profile:\n\nEach sample counts as 0.01 seconds.\n no time accumulated\n\n  %   cumulative   self              self     total           \n time   seconds   seconds    calls  Ts/call  Ts/call  name    \n',
      ),
    );
    assert.equal(p.tree.size, 0);
    assert.equal(p.total(0), 0);
  });

  it('keeps non-ASCII names and C++ signatures', async () => {
    const text = brief.replaceAll('compute_b', 'größe<std::pair<int, int> >(int)');
    const p = await gprofTextReader.read(write('utf8.txt', text));
    assert.ok(pathsOf(p).has('main → run_rounds → größe<std::pair<int, int> >(int) → accumulate'));
    checkAgainstFlatProfile(p, text);
  });

  it('reads a flat profile without a call graph (gprof -p): every function a root', async () => {
    const text = brief.slice(0, brief.indexOf('\t\t\tCall graph'));
    const p = await gprofTextReader.read(write('flat.txt', text));
    assert.equal(p.tree.roots().length, p.tree.size);
    checkAgainstFlatProfile(p, text);
  });

  it('sniffs gprof output by content', async () => {
    for (const name of ['gprof.txt', 'gprof-brief.txt', 'gprof-lines.txt'])
      assert.equal(chooseFormat(await sampleFile(fixture(name)))?.id, gprofTextReader.id, name);
    const callGraphOnly = write('q.txt', brief.slice(brief.indexOf('\t\t\tCall graph')));
    assert.equal(chooseFormat(await sampleFile(callGraphOnly))?.id, gprofTextReader.id);
    for (const other of ['gprof2dot-gprof.dot', 'callgrind.out.main'])
      assert.equal(gprofTextReader.sniff(await sampleFile(fixture(other))), 0, other);
  });

  it('names the file and the reason for bad input', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'no-index.txt',
        brief.slice(0, brief.indexOf('Index by function name')),
        /not followed by gprof's "Index by function name" \(truncated\?\)/,
      ],
      [
        'garbage.txt',
        brief.replace(/^(\s+0\.\d\d\s+0\.\d\d\s+\d+\/\d+\s+)compute_b(.*)$/m, '$1compute_b$2\n     what is this?'),
        /line \d+: not a line of gprof's call graph: "what is this\?"/,
      ],
      [
        'two-names.txt',
        brief.replace(/is_odd <cycle 1> \[(\d+)\]$/m, 'is_weird <cycle 1> [$1]'),
        /line \d+: index \[\d+\] names both/,
      ],
      [
        'open-entry.txt',
        brief.replace(/-+\n\f?\n?Index by function name/, '\nIndex by function name'),
        /not closed by a line of dashes/,
      ],
      ['not-gprof.txt', 'hello\nworld\n', /not gprof output/],
    ];
    for (const [name, text, reason] of cases) {
      const path = write(name, text);
      await assert.rejects(gprofTextReader.read(path), (e: Error) => {
        assert.ok(e, name);
        assert.ok(e instanceof ProfileReadError, `${name}: ${e}`);
        assert.ok(e.message.startsWith(path), `${name}: the message names the file: ${e.message}`);
        assert.match(e.message, reason, name);
        return true;
      });
    }
  });

  it('can be cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      gprofTextReader.read(fixture('gprof.txt'), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('reports progress in [0, 1], ending at 1', async () => {
    const seen: number[] = [];
    await gprofTextReader.read(fixture('gprof.txt'), { onProgress: f => seen.push(f) });
    assert.ok(seen.every(f => f >= 0 && f <= 1) && seen.at(-1) === 1);
  });

  it('survives damaged files: each one is read or rejected with a ProfileReadError, quickly', async () => {
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(Buffer.from(brief), { seed: 31 })) {
      counts[await readOrReject(write('mutant.txt', bytes), gprofTextReader, name)]++;
    }
    assert.ok(counts.rejected > 50 && counts.read > 50, JSON.stringify(counts));
  });
});
