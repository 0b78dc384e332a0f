import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PROFILE_DIR,
  REGIONS_FILE,
  SAMPLING_FILE,
  SOURCE_DIR,
  generateProfiles,
  readSources,
} from './generate-samples';

interface JsonNode {
  label: string;
  column: string;
  parent?: number;
}
interface JsonSplit {
  data: (number | null)[][];
  columns: string[];
  column_metadata: Record<string, unknown>[];
  nodes: JsonNode[];
  [meta: string]: unknown;
}

const load = (name: string): JsonSplit => JSON.parse(readFileSync(join(PROFILE_DIR, name), 'utf8')) as JsonSplit;

/** The library (load module) each source file is built into, as in samples/heat-stencil/Makefile. */
const FILE_MODULE: Record<string, string> = {
  'main.c': 'heat',
  'stencil.c': 'libstencil.so',
  'halo.c': 'libhalo.so',
  'checkpoint.c': 'libckpt.so',
  'minimpi.c': 'libminimpi.so',
};

// A deliberately separate, simple C scanner: the test must not trust the generator's own.

/** Comments and string/char literals replaced by spaces, newlines kept. */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, m =>
    m.replace(/[^\n]/g, ' '),
  );
}

/** Function definitions of a C file: name and the 1-based lines of the body's opening and closing brace. */
function functionDefinitions(text: string): { name: string; open: number; close: number }[] {
  const out: { name: string; open: number; close: number }[] = [];
  let depth = 0;
  let header = '';
  let current: { name: string | null; open: number } | null = null;
  codeOnly(text)
    .split('\n')
    .forEach((line, i) => {
      if (depth === 0 && line.trimStart().startsWith('#')) {
        header = '';
        return;
      }
      for (const ch of line) {
        if (depth === 0) {
          if (ch === '{') {
            const m = /([A-Za-z_]\w*)\s*\(/.exec(header.replace(/__attribute__\s*\(\([^)]*\)\)/g, ''));
            current = { name: m ? m[1]! : null, open: i + 1 };
            depth = 1;
            header = '';
          } else if (ch === ';') header = '';
          else header += ch;
        } else if (ch === '{') depth++;
        else if (ch === '}' && --depth === 0) {
          if (current?.name) out.push({ name: current.name, open: current.open, close: i + 1 });
          current = null;
        }
      }
      if (depth === 0) header += '\n';
    });
  return out;
}

function callPath(nodes: JsonNode[], index: number): string[] {
  const path: string[] = [];
  for (let i: number | undefined = index; i !== undefined; i = nodes[i]!.parent) path.unshift(nodes[i]!.label);
  return path;
}

/** Sum of sum#time.duration per rank over the sampling rows whose call path satisfies `pick`. */
function timeByRank(profile: JsonSplit, pick: (path: string[]) => boolean): number[] {
  const col = (name: string): number => profile.columns.indexOf(name);
  const [rankCol, pathCol, timeCol] = [
    col('mpi.rank'),
    col('source.function#callpath.address'),
    col('sum#time.duration'),
  ];
  const out = [0, 0, 0, 0];
  for (const row of profile.data) {
    if (pick(callPath(profile.nodes, row[pathCol] as number))) out[row[rankCol] as number]! += row[timeCol] as number;
  }
  return out;
}

describe('generate-samples', () => {
  it('produces exactly the committed profiles (they cannot go stale)', () => {
    const files = generateProfiles(readSources());
    assert.deepEqual(files.map(f => f.name).sort(), [REGIONS_FILE, SAMPLING_FILE].sort());
    for (const f of files) {
      assert.equal(
        f.text,
        readFileSync(join(PROFILE_DIR, f.name), 'utf8'),
        `${f.name} is stale: run npx tsx scripts/generate-samples.ts`,
      );
      assert.ok(f.text.length < 50_000, `${f.name} should stay small`);
    }
  });

  it('writes the json-split shape Caliper and Hatchet use', () => {
    const sampling = load(SAMPLING_FILE);
    assert.deepEqual(sampling.columns, [
      'count',
      'module#cali.sampler.pc',
      'mpi.rank',
      'source.function#callpath.address',
      'sourceloc#cali.sampler.pc',
      'sum#time.duration',
    ]);
    assert.deepEqual(
      sampling.column_metadata.map(m => m.is_value),
      [true, false, true, false, false, true],
    );
    assert.equal(sampling.column_metadata[5]!['attribute.unit'], 'sec');
    const regions = load(REGIONS_FILE);
    assert.deepEqual(regions.columns, ['inclusive#sum#time.duration', 'mpi.rank', 'sum#time.duration', 'path']);
    for (const p of [sampling, regions]) {
      assert.equal(p['mpi.world.size'], '4');
      assert.equal(p.executable, 'heat');
      for (const [k, v] of Object.entries(p)) {
        if (!['data', 'columns', 'column_metadata', 'nodes'].includes(k)) assert.equal(typeof v, 'string', k);
      }
      for (const row of p.data) assert.equal(row.length, p.columns.length);
    }
    // Module and source-location nodes are flat; call-path nodes are below _start or clone3.
    for (const n of sampling.nodes) {
      if (n.column !== 'source.function#callpath.address') assert.equal(n.parent, undefined, n.label);
      else if (n.parent === undefined) assert.ok(['_start', 'clone3'].includes(n.label), n.label);
    }
  });

  it('points every source location at a statement of the function the rows attribute it to', () => {
    const profile = load(SAMPLING_FILE);
    const [moduleCol, pathCol, locCol] = [1, 3, 4];
    const sources = new Map<string, { lines: string[]; code: string[]; fns: ReturnType<typeof functionDefinitions> }>();
    let checked = 0;
    for (const row of profile.data) {
      const label = profile.nodes[row[locCol] as number]!.label;
      if (label === 'UNKNOWN:0') continue;
      const m = /^\/.*\/src\/([\w-]+\.[ch]):(\d+)$/.exec(label);
      assert.ok(m, `source location ${label} is not <absolute path>/src/<file>:<line>`);
      const [file, line] = [m[1]!, Number(m[2])];
      const path = join(SOURCE_DIR, file);
      assert.ok(existsSync(path), `${label}: no ${path}`);
      let src = sources.get(file);
      if (src === undefined) {
        const text = readFileSync(path, 'utf8');
        src = { lines: text.split('\n'), code: codeOnly(text).split('\n'), fns: functionDefinitions(text) };
        sources.set(file, src);
      }
      assert.ok(line >= 1 && line <= src.lines.length, `${label}: ${file} has ${src.lines.length} lines`);
      const code = src.code[line - 1]!.trim();
      assert.ok(
        code !== '' && !/^[{}]+$/.test(code) && !code.startsWith('#'),
        `${label} is not a statement: "${src.lines[line - 1]}"`,
      );
      const leaf = profile.nodes[row[pathCol] as number]!.label;
      const enclosing = src.fns.find(f => f.open < line && line < f.close);
      assert.equal(enclosing?.name, leaf, `${label} ("${src.lines[line - 1]!.trim()}") is attributed to ${leaf}()`);
      assert.equal(profile.nodes[row[moduleCol] as number]!.label, FILE_MODULE[file], `${label}: module`);
      checked++;
    }
    assert.ok(checked > 20, 'expected line-level rows');
  });

  it('shows the imbalance: rank 0 sweeps longer, ranks 1-3 wait in MPI longer', () => {
    const profile = load(SAMPLING_FILE);
    const sweep = timeByRank(profile, p => p[p.length - 1] === 'jacobi_sweep');
    const others = (sweep[1]! + sweep[2]! + sweep[3]!) / 3;
    assert.ok(sweep[0]! > 1.5 * others, `jacobi_sweep by rank: ${sweep.join(', ')}`);
    const wait = timeByRank(profile, p => p.includes('mailbox_wait') || p.includes('barrier_wait'));
    for (const r of [1, 2, 3]) assert.ok(wait[r]! > wait[0]!, `MPI wait by rank: ${wait.join(', ')}`);
    // Every rank has rows, and all ranks ran for about the same time.
    const total = timeByRank(profile, () => true);
    for (const t of total) assert.ok(t > 0.9 * Math.max(...total), `total by rank: ${total.join(', ')}`);
  });

  it('keeps inclusive = exclusive + Σ children inclusive in the region profile, per rank', () => {
    const profile = load(REGIONS_FILE);
    const inclusive = new Map<string, number>();
    const exclusive = new Map<string, number>();
    for (const [incl, rank, excl, node] of profile.data) {
      if (node === null) {
        assert.equal(incl, excl, 'a global row has no children');
        continue;
      }
      inclusive.set(`${node}/${rank}`, incl as number);
      exclusive.set(`${node}/${rank}`, excl as number);
    }
    const ranks = [0, 1, 2, 3];
    profile.nodes.forEach((_, node) => {
      const children = profile.nodes.map((n, i) => (n.parent === node ? i : -1)).filter(i => i >= 0);
      for (const rank of ranks) {
        const own = exclusive.get(`${node}/${rank}`);
        assert.notEqual(own, undefined, `no row for node ${node}, rank ${rank}`);
        const sum = own! + children.reduce((s, c) => s + inclusive.get(`${c}/${rank}`)!, 0);
        assert.ok(
          Math.abs(inclusive.get(`${node}/${rank}`)! - sum) <= 1e-9,
          `node ${node} (${profile.nodes[node]!.label}), rank ${rank}`,
        );
      }
    });
    assert.equal(profile.data.filter(r => r[3] === null).length, 4, 'one global row per rank');
  });

  it('lists every parent node before its children', () => {
    for (const name of [SAMPLING_FILE, REGIONS_FILE]) {
      load(name).nodes.forEach((n, i) => {
        if (n.parent !== undefined) assert.ok(n.parent < i, `${name}: node ${i} has parent ${n.parent}`);
      });
    }
  });

  it('fails loudly when the C sources no longer contain what it looks for', () => {
    const sources = readSources();
    const edited = { ...sources, 'stencil.c': sources['stencil.c']!.replace('sum += d * d;', 'sum = sum + d * d;') };
    assert.throws(() => generateProfiles(edited), /sum \+= d \* d;.*compute_residual/);
    const renamed = { ...sources, 'halo.c': sources['halo.c']!.replaceAll('exchange_halos', 'exchange_ghosts') };
    assert.throws(() => generateProfiles(renamed), /exchange_halos/);
  });
});
