import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { skipUnlessShared, sharedPath } from '../../../test/support/shared-data';
import { caliperJsonSplitReader } from './caliper-json-split';
import { hatchetLiteralReader } from './hatchet-literal';
import { readProfile } from './index';
import { comparePaths, findProfiles, parametersFromPath, runNames } from './profile-folder';
import { ProfileReadError, type ProfileReader } from './reader';

const CALIPER = JSON.stringify({
  data: [
    [2, 0],
    [1, 1],
  ],
  columns: ['sum#time.duration', 'path'],
  column_metadata: [{ is_value: true }, { is_value: false }],
  nodes: [
    { label: 'main', column: 'path' },
    { label: 'solve', column: 'path', parent: 0 },
  ],
});
const LITERAL = JSON.stringify([{ frame: { name: 'main', type: 'function' }, metrics: { time: 1 } }]);

/** Claims directories holding `fake.db` (like an HPCToolkit database) and fails on `explode.json`. */
const fakeDirectoryReader: ProfileReader = {
  id: 'fake-directory',
  name: 'Fake directory format',
  sniff(sample) {
    if (sample.path.endsWith('explode.json')) throw new Error('the sniffer broke');
    return sample.isDirectory && sample.entries.includes('fake.db') ? 1 : 0;
  },
  read() {
    throw new Error('not used');
  },
};
const readers = [caliperJsonSplitReader, hatchetLiteralReader, fakeDirectoryReader];

/** Writes `files` (relative path → content) under a new temporary folder. */
function tree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'hpc-lens-folder-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

const isRoot = process.getuid?.() === 0;

describe('findProfiles', () => {
  const root = tree({
    'study/125_cores.json': CALIPER,
    'study/27_cores.json': CALIPER,
    'study/64_cores.json': CALIPER,
    'study/notes.txt': 'not a profile',
    'study/empty.json': '',
    'study/explode.json': '{}',
    'study/.hidden/9_cores.json': CALIPER,
    'rajaperf/gcc10_2097152/O3/1/Base_Seq-default.json': LITERAL,
    'rajaperf/gcc10_1048576/O3/2/Base_Seq-default.json.gz': gzipSync(LITERAL),
    'rajaperf/gcc10_1048576/O3/1/Base_Seq-default.json': LITERAL,
    'db/fake.db': 'x',
    'db/inside.json': CALIPER,
    'deep/a/b/c/d.json': CALIPER,
  });
  symlinkSync(root, join(root, 'deep', 'loop'));
  symlinkSync(join(root, 'nowhere'), join(root, 'study', 'broken.json'));

  it('finds every profile once, in a stable natural order, with run names and parameters', async () => {
    const scan = await findProfiles(root, { formats: readers });
    assert.deepEqual(
      scan.profiles.map(p => [p.relativePath, p.readerId, p.isDirectory]),
      [
        ['db', 'fake-directory', true],
        ['deep/a/b/c/d.json', 'caliper-json-split', false],
        ['rajaperf/gcc10_1048576/O3/1/Base_Seq-default.json', 'hatchet-literal', false],
        ['rajaperf/gcc10_1048576/O3/2/Base_Seq-default.json.gz', 'hatchet-literal', false],
        ['rajaperf/gcc10_2097152/O3/1/Base_Seq-default.json', 'hatchet-literal', false],
        ['study/27_cores.json', 'caliper-json-split', false],
        ['study/64_cores.json', 'caliper-json-split', false],
        ['study/125_cores.json', 'caliper-json-split', false],
      ],
    );
    assert.equal(scan.profiles[0]!.path, join(root, 'db'));
    assert.deepEqual(
      scan.profiles.map(p => p.runName),
      [
        'db',
        'deep/a/b/c/d',
        'rajaperf/gcc10_1048576/O3/1/Base_Seq-default',
        'rajaperf/gcc10_1048576/O3/2/Base_Seq-default',
        'rajaperf/gcc10_2097152/O3/1/Base_Seq-default',
        'study/27_cores',
        'study/64_cores',
        'study/125_cores',
      ],
    );
    assert.deepEqual(scan.profiles[7]!.parameters, { cores: 125 });
    assert.deepEqual(
      scan.errors.map(e => [e.relativePath, e.reason]),
      [
        ['study/broken.json', 'not found (a broken symbolic link, or removed during the search)'],
        ['study/explode.json', 'the sniffer broke'],
      ],
    );
  });

  it('names runs by what differs between them', async () => {
    const study = await findProfiles(join(root, 'study'), { formats: readers });
    assert.deepEqual(
      study.profiles.map(p => p.runName),
      ['27_cores', '64_cores', '125_cores'],
    );
    const raja = await findProfiles(join(root, 'rajaperf'), { formats: readers });
    assert.deepEqual(
      raja.profiles.map(p => p.runName),
      ['gcc10_1048576/O3/1', 'gcc10_1048576/O3/2', 'gcc10_2097152/O3/1'],
    );
    assert.deepEqual(
      raja.profiles.map(p => p.parameters),
      [
        { compiler: 'gcc10', param1: 1048576, optimization: 'O3', param2: 1 },
        { compiler: 'gcc10', param1: 1048576, optimization: 'O3', param2: 2 },
        { compiler: 'gcc10', param1: 2097152, optimization: 'O3', param2: 1 },
      ],
    );
  });

  it('treats a claimed folder as one profile, also when it is the folder searched', async () => {
    const scan = await findProfiles(join(root, 'db'), { formats: readers });
    assert.deepEqual(
      scan.profiles.map(p => [p.relativePath, p.runName, p.readerId]),
      [['.', 'db', 'fake-directory']],
    );
  });

  it('stops at maxDepth and gives the same answer at any concurrency', async () => {
    const shallow = await findProfiles(root, { formats: readers, maxDepth: 1 });
    assert.ok(!shallow.profiles.some(p => p.relativePath.startsWith('deep/')));
    assert.ok(shallow.profiles.some(p => p.relativePath === 'study/27_cores.json'));
    const one = await findProfiles(root, { formats: readers, concurrency: 1 });
    const many = await findProfiles(root, { formats: readers, concurrency: 32 });
    assert.deepEqual(one, many);
  });

  it(
    'reports unreadable folders as errors and goes on',
    { skip: isRoot ? 'permissions do not apply to root' : false },
    async () => {
      const locked = tree({ 'ok/1.json': CALIPER, 'locked/2.json': CALIPER });
      chmodSync(join(locked, 'locked'), 0o000);
      try {
        const scan = await findProfiles(locked, { formats: readers });
        assert.deepEqual(
          scan.profiles.map(p => p.relativePath),
          ['ok/1.json'],
        );
        assert.deepEqual(
          scan.errors.map(e => [e.relativePath, e.reason]),
          [['locked', 'permission denied']],
        );
      } finally {
        chmodSync(join(locked, 'locked'), 0o755);
      }
    },
  );

  it('reports progress in [0, 1] that ends at 1, and can be cancelled', async () => {
    const seen: number[] = [];
    await findProfiles(root, { formats: readers, onProgress: f => seen.push(f) });
    assert.ok(
      seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]!)),
      `progress ${seen}`,
    );
    assert.equal(seen.at(-1), 1);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      findProfiles(root, { formats: readers, signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
    const later = new AbortController();
    await assert.rejects(
      findProfiles(root, { formats: readers, signal: later.signal, onProgress: () => later.abort() }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('refuses what is not a folder', async () => {
    await assert.rejects(findProfiles(join(root, 'study', '27_cores.json')), /27_cores\.json: not a folder/);
    await assert.rejects(
      findProfiles(join(root, 'missing')),
      (e: Error) => e instanceof ProfileReadError && /missing: no such file or directory/.test(e.message),
    );
  });
});

describe('readProfile on a folder', () => {
  it('says a folder of profiles is an ensemble to open', async () => {
    const root = tree({
      'runs/27_cores.json': CALIPER,
      'runs/64_cores.json': CALIPER,
      'runs/125_cores.json': CALIPER,
      'runs/216_cores.json': CALIPER,
    });
    const folder = join(root, 'runs');
    await assert.rejects(readProfile(folder), (e: Error) => {
      assert.ok(e instanceof ProfileReadError);
      assert.equal(
        e.message,
        `${folder}: a folder of 4 profiles (27_cores, 64_cores, 125_cores, …); open it as an ensemble`,
      );
      return true;
    });
  });

  it('reads the one profile of a folder that holds a single profile', async () => {
    const single = tree({ 'only/run.json': LITERAL });
    const p = await readProfile(join(single, 'only'));
    assert.equal(p.format, 'hatchet-literal');
    assert.equal(p.path, join(single, 'only', 'run.json'));
  });

  it('still says "not a recognised profile format" for a folder without profiles', async () => {
    const root = tree({ 'notes.txt': 'hello', 'sub/readme.md': '# hi' });
    await assert.rejects(readProfile(root), /not a recognised profile format/);
  });

  it(
    'offers the shared Caliper ensembles as ensembles',
    { skip: skipUnlessShared('data', 'caliper-json') },
    async () => {
      const folder = sharedPath('data', 'caliper-json', 'lulesh-mpi-scaling-5runs');
      await assert.rejects(
        readProfile(folder),
        /a folder of 5 profiles \(27_cores, 64_cores, 125_cores, …\); open it as an ensemble/,
      );
    },
  );
});

describe('run names and parameters', () => {
  it('orders numbers in names by value', () => {
    const paths = ['b/10', 'a/x', 'b/9', 'b/9/z', 'B', 'run_10.json', 'run_2.json', 'run_2a.json'];
    assert.deepEqual([...paths].sort(comparePaths), [
      'B',
      'a/x',
      'b/9',
      'b/9/z',
      'b/10',
      'run_2.json',
      'run_2a.json',
      'run_10.json',
    ]);
  });

  it('drops shared folders, extensions and a shared file name; keeps colliding names whole', () => {
    assert.deepEqual(runNames(['lulesh/27_cores.cali', 'lulesh/64_cores.cali']), ['27_cores', '64_cores']);
    assert.deepEqual(runNames(['r/gcc_1/O3/1/Base.cali', 'r/gcc_1/O3/2/Base.cali']), ['1', '2']);
    assert.deepEqual(runNames(['r/gcc_1/O3/1/Base.cali', 'r/gcc_2/O3/1/Base.cali']), ['gcc_1/O3/1', 'gcc_2/O3/1']);
    assert.deepEqual(runNames(['one/profile.json.gz']), ['profile']);
    assert.deepEqual(runNames(['a.json', 'a.cali', 'b.json']), ['a.json', 'a.cali', 'b']);
    assert.deepEqual(runNames(['db.d', 'x/callgrind.dot.64042.0.1'], [true, false]), [
      'db.d',
      'x/callgrind.dot.64042.0.1',
    ]);
    assert.deepEqual(runNames([]), []);
  });

  it('reads parameters from path segments, conservatively', () => {
    assert.deepEqual(parametersFromPath('clang10_1048576/O3/1/Base_Seq-default.cali'), {
      compiler: 'clang10',
      param1: 1048576,
      optimization: 'O3',
      param2: 1,
    });
    assert.deepEqual(parametersFromPath('lulesh-mpi-scaling-5runs/27_cores.cali'), { cores: 27 });
    assert.deepEqual(parametersFromPath('scaling/n=16,threads=4/run.json'), { n: 16, threads: 4 });
    assert.deepEqual(parametersFromPath('x/64ranks_8threads/gpus_2.json'), { ranks: 64, threads: 8, gpus: 2 });
    assert.deepEqual(parametersFromPath('intel-19.1_Ofast/mode=fast'), {
      compiler: 'intel-19.1',
      optimization: 'Ofast',
      mode: 'fast',
    });
    assert.deepEqual(
      parametersFromPath('ordered-mpi/230525-151723_1930647_FSY8b8cKSEEi.json'),
      {},
      'ids inside names are no parameters',
    );
    assert.deepEqual(parametersFromPath('spotdb-4runs/3.cali'), { param1: 3 });
    assert.deepEqual(parametersFromPath('Base_Seq-default.json'), {});
  });
});
