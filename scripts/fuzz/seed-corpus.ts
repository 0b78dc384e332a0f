/**
 * The valid inputs the fuzzer starts from, for every reader: the project's fixtures and sample
 * profiles, small inputs written by the project's own test generators (HPCToolkit databases, OTF2
 * archives, CUBE archives, SQLite and protobuf through the same libraries the tests use) or by hand
 * here for the text formats no fixture covers, and — when present — the real files of
 * `../shared/data` (never copied into the project: read in place).
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Profile as PprofProfile, StringTable } from 'pprof-format';
import { sampleFile } from '../../src/analysis/formats/file-sample';
import { findProfiles } from '../../src/analysis/formats/profile-folder';
import { chooseFormat, FORMATS } from '../../src/analysis/formats/registry';
import { cube3Document, cubexArchive, type CubeSpec } from '../../src/analysis/formats/cube/test-cubex';
import { writeDatabase } from '../../src/analysis/formats/hpctoolkit-metadb/test-db-writer';
import { writeFixtureDatabase } from '../../src/analysis/formats/hpctoolkit-xml/test-database';
import { sqlEngine } from '../../src/analysis/formats/nsight-sqlite/sqlite';
import { writeTestArchive } from '../../src/analysis/formats/otf2/test-archive';

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** One valid input: a file, or a directory (databases, archives) whose member files are mutated too. */
export interface Seed {
  /** Reader id (`hpc-lens inspect` reports it as `format`). */
  format: string;
  /** Where it comes from, relative to the repository or the shared data, or `generated:…`. */
  origin: string;
  path: string;
  isDirectory: boolean;
}

/**
 * Shared-data seeds larger than this (a file, or a directory in total) are left out by default: every
 * mutation copies, reads and rewrites its seed, so a 300 MB seed costs seconds per input before the
 * reader even starts. Every format keeps its fixtures and generated seeds, so none goes unfuzzed.
 */
export const DEFAULT_MAX_SEED_BYTES = 8 << 20;

/** Writes the generated seeds into `dir` and lists them with the fixtures, samples and shared data. */
export async function seedCorpus(
  dir: string,
  options: { sharedData?: string | null; maxSeedBytes?: number } = {},
): Promise<Seed[]> {
  const maxSeedBytes = options.maxSeedBytes ?? DEFAULT_MAX_SEED_BYTES;
  const seeds: Seed[] = [];
  const add = async (path: string, origin: string, required: boolean) => {
    const sample = await sampleFile(path);
    const format = chooseFormat(sample);
    if (format) seeds.push({ format: format.id, origin, path, isDirectory: sample.isDirectory });
    else if (required) throw new Error(`seed ${origin} is not recognised by any reader`);
  };
  // Fixture folders also hold the sources and scripts that made the fixtures: those are no seeds.
  for (const path of projectFiles()) await add(path, relative(REPO_ROOT, path), false);
  mkdirSync(dir, { recursive: true });
  for (const [name, write] of Object.entries(GENERATED)) {
    const path = await write(join(dir, name));
    await add(path, `generated:${name}`, true);
  }
  const shared = options.sharedData === undefined ? resolve(REPO_ROOT, '..', 'shared', 'data') : options.sharedData;
  if (shared && existsSync(shared)) {
    const { profiles } = await findProfiles(shared, { maxDepth: 6 });
    for (const p of profiles) {
      if (!p.isDirectory && statSync(p.path).size > maxSeedBytes) continue;
      if (p.isDirectory && directoryBytes(p.path) > maxSeedBytes) continue;
      seeds.push({ format: p.readerId, origin: `shared:${p.relativePath}`, path: p.path, isDirectory: p.isDirectory });
    }
  }
  const known = new Set(FORMATS.map(r => r.id));
  const missing = [...known].filter(id => !seeds.some(s => s.format === id));
  if (missing.length) throw new Error(`no seed for ${missing.join(', ')}`);
  return seeds;
}

function directoryBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? directoryBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

/** test/fixtures and samples/<name>/profiles: every file but READMEs. */
function projectFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !/\.md$/i.test(e.name)) out.push(p);
    }
  };
  walk(join(REPO_ROOT, 'test', 'fixtures'));
  const samples = join(REPO_ROOT, 'samples');
  for (const s of existsSync(samples) ? readdirSync(samples).sort() : []) walk(join(samples, s, 'profiles'));
  return out;
}

const text = (path: string, content: string | Uint8Array) => {
  writeFileSync(path, content);
  return path;
};

/** Seeds for the formats the fixtures and samples do not cover, each a few hundred bytes to a few KB. */
const GENERATED: Record<string, (path: string) => string | Promise<string>> = {
  'metadb-database': dir => {
    writeDatabase(dir, {
      title: 'fuzz',
      metrics: [{ name: 'CPUTIME (sec)' }, { name: 'REALTIME (sec)', scopes: ['point', 'function', 'execution'] }],
      modules: ['/opt/app/bin/app'],
      files: ['/src/main.c', { path: 'src/src/solve.c', copied: true }],
      functions: [
        { name: 'main', module: 0, file: 0, line: 10 },
        { name: 'solve', module: 0, file: 1, line: 3 },
      ],
      entries: [
        {
          id: 1,
          kind: 1,
          children: [
            {
              id: 2,
              type: 'function',
              function: 0,
              self: { 0: 0.5, 1: [1, 2] },
              children: [
                { id: 3, type: 'line', file: 0, line: 12, self: { 0: 2, 1: 1 } },
                {
                  id: 4,
                  type: 'function',
                  function: 1,
                  children: [{ id: 5, type: 'loop', file: 1, line: 5, self: { 0: [3, 4], 1: 2 } }],
                },
              ],
            },
          ],
        },
      ],
      profiles: [[['RANK', 0]], [['RANK', 1]]],
      traces: [
        {
          profile: 0,
          samples: [
            [1000, 3],
            [2000, 5],
          ],
        },
      ],
      taxonomy:
        'version: 0\nroots:\n  - name: CPUTIME (sec)\n    variants: {Sum: {render: [number], formula: first}}\n',
    });
    return dir;
  },
  'xml-database': dir =>
    writeFixtureDatabase(dir, {
      program: 'app',
      contexts: [
        [0, 0],
        [1, 0],
      ],
      roots: [
        {
          tag: 'PF',
          proc: 'main',
          file: './src/main.c',
          line: 10,
          module: '/opt/app',
          children: [
            { tag: 'S', line: 11, cost: [1, 2] },
            {
              tag: 'L',
              file: './src/main.c',
              line: 12,
              children: [
                { tag: 'S', line: 13, cost: [10, 20] },
                {
                  tag: 'C',
                  line: 14,
                  children: [
                    {
                      tag: 'PF',
                      proc: 'solve',
                      file: './src/solve.c',
                      line: 3,
                      children: [{ tag: 'S', line: 4, cost: [5, 0] }],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
  'otf2-archive': dir => {
    mkdirSync(dir, { recursive: true });
    writeTestArchive(dir, {
      resolution: 1e9,
      offset: 0n,
      regions: [
        { name: 'main', file: 'main.c', line: 10 },
        { name: 'work' },
        { name: 'MPI_Send' },
        { name: 'MPI_Recv' },
      ],
      metrics: [{ name: 'PAPI_TOT_CYC', unit: '#', type: 'uint64' }],
      ranks: [
        {
          events: [
            { t: 0, enter: 0 },
            { t: 10, enter: 1 },
            { t: 20, metric: { id: 0, values: [12345] } },
            { t: 30, leave: 1 },
            { t: 40, enter: 2 },
            { t: 45, send: { peer: 1, comm: 0, tag: 7, bytes: 1024 } },
            { t: 50, leave: 2 },
            { t: 100, leave: 0 },
          ],
        },
        {
          events: [
            { t: 0, enter: 0 },
            { t: 40, enter: 3 },
            { t: 60, recv: { peer: 0, comm: 0, tag: 7, bytes: 1024 } },
            { t: 65, leave: 3 },
            { t: 90, leave: 0 },
          ],
        },
      ],
    });
    return dir;
  },
  'archive.cubex': path => text(path, cubexArchive(CUBE)),
  'cube3.cube': path => text(path, cube3Document({ ...CUBE, version: '3.0' })),
  'nsys.sqlite': async path => text(path, await nsightDatabase()),
  'profile.pb': path => text(path, pprofProfile()),
  'tau-profiles': dir => {
    mkdirSync(dir, { recursive: true });
    const timers = (k: number) => [
      ['.TAU application', 1, 1, 10 * k, 100 * k],
      ['main [{/src/app.c} {10,1}-{40,1}]', 1, 1, 30 * k, 90 * k],
      ['.TAU application => main [{/src/app.c} {10,1}-{40,1}]', 1, 1, 30 * k, 90 * k],
      ['solve [{/src/solve.c} {5,1}]', 2, 0, 60 * k, 60 * k],
      ['.TAU application => main [{/src/app.c} {10,1}-{40,1}] => solve [{/src/solve.c} {5,1}]', 2, 0, 60 * k, 60 * k],
    ];
    for (const [rank, k] of [
      [0, 1],
      [1, 2],
    ] as const) {
      const lines = [
        `${timers(k).length} templated_functions_MULTI_TIME`,
        '# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value></attribute><attribute><name>Hostname</name><value>node1</value></attribute></metadata>',
        ...timers(k).map(
          ([n, c, s, e, i]) =>
            `"${n}" ${c} ${s} ${e} ${i} 0 GROUP="${String(n).includes('=>') ? 'TAU_CALLPATH|TAU_USER' : 'TAU_USER'}" `,
        ),
        '0 aggregates',
        '1 userevents',
        '# eventname numevents max min mean sumsqr',
        '"Message size sent" 4 1024 8 300 500000 ',
      ];
      writeFileSync(join(dir, `profile.${rank}.0.0`), lines.join('\n') + '\n');
    }
    return dir;
  },
  'annotation.cali': path =>
    text(
      path,
      [
        '__rec=node,id=20,attr=10,data=268,parent=3',
        '__rec=node,id=21,attr=8,data=function,parent=20',
        '__rec=node,id=23,attr=10,data=65,parent=1',
        '__rec=node,id=24,attr=8,data=mpi.rank,parent=23',
        '__rec=node,id=32,attr=10,data=2113,parent=5',
        '__rec=node,id=33,attr=8,data=sum#time.duration,parent=32',
        '__rec=node,id=34,attr=10,data=2113,parent=5',
        '__rec=node,id=35,attr=8,data=inclusive#sum#time.duration,parent=34',
        '__rec=node,id=40,attr=21,data=main',
        '__rec=ctx,ref=40,attr=24=33=35,data=0=1=10',
        '__rec=node,id=41,attr=21,data=fib,parent=40',
        '__rec=ctx,ref=41,attr=24=33=35,data=0=2=6',
        '__rec=node,id=42,attr=21,data=fib,parent=41',
        '__rec=ctx,ref=42,attr=24=33=35,data=0=4=4',
        '__rec=ctx,ref=40,attr=24=33=35,data=1=5=5',
        '__rec=node,id=50,attr=10,data=512,parent=3',
        '__rec=node,id=51,attr=8,data=cluster,parent=50',
        '__rec=node,id=62,attr=51,data=quartz',
        '__rec=globals,ref=62',
      ].join('\n') + '\n',
    ),
  'expand.txt': path =>
    text(
      path,
      [
        'function=main,mpi.rank=0,sum#time.duration=1,inclusive#sum#time.duration=10',
        'function=main/fib,mpi.rank=0,sum#time.duration=2,inclusive#sum#time.duration=6',
        'function=main/fib/fib,mpi.rank=0,sum#time.duration=4,inclusive#sum#time.duration=4',
        'loop=main/loop 1,function=main,mpi.rank=1,sum#time.duration=3,inclusive#sum#time.duration=3',
        'function=main,mpi.rank=1,sum#time.duration=5,inclusive#sum#time.duration=8',
      ].join('\n') + '\n',
    ),
  'records.json': path =>
    text(
      path,
      `[
{"path":"main","inclusive#sum#time.duration":10,"mpi.rank":0,"sum#time.duration":1},
{"path":"main/fib","inclusive#sum#time.duration":6,"mpi.rank":0,"sum#time.duration":2},
{"path":"main/fib/fib","inclusive#sum#time.duration":4,"mpi.rank":0,"sum#time.duration":4},
{"path":"main","inclusive#sum#time.duration":5,"mpi.rank":1,"sum#time.duration":5}
]
`,
    ),
  'literal.json': path =>
    text(
      path,
      JSON.stringify([
        {
          frame: { name: 'main', type: 'function' },
          metrics: { 'time (inc)': 10, time: 1 },
          attributes: { file: '/src/main.c', line: 10 },
          children: [
            {
              frame: { name: 'solve', type: 'function' },
              metrics: { 'time (inc)': 6, time: 4 },
              children: [{ frame: { name: 'kernel', type: 'loop' }, metrics: { 'time (inc)': 2, time: 2 } }],
            },
            { frame: { name: 'io', type: 'function' }, metrics: { 'time (inc)': 3, time: 3 } },
          ],
        },
      ]),
    ),
  'perf.txt': path =>
    text(
      path,
      `# ========
# hostname : node17
# cmdline : /usr/bin/perf record -e cycles:u -g ./solver
# event : name = cycles:u, , id = { 12 }, type = 0
# ========
#
solver  100/100  [001] 4295.521376:     250000 cycles:u: 
\t            116a kernel_loop+0x31 (/opt/solver)
  solver.c:42
\t            11ae main+0x18 (/opt/solver)
  solver.c:88

solver  100/101  [002] 4295.522376:     500000 cycles:u: 
\t            1170 kernel_loop+0x37 (/opt/solver)
  solver.c:43
\t            11ae main+0x18 (/opt/solver)
  solver.c:88

`,
    ),
  'stacks.folded': path =>
    text(path, 'main;solve;kernel 120\nmain;solve;kernel_[k] 3\nmain;io;write 40\nmain 5\nmain;solve 7.5\n'),
  'speedscope.json': path =>
    text(
      path,
      JSON.stringify({
        $schema: 'https://www.speedscope.app/file-format-schema.json',
        shared: { frames: [{ name: 'main', file: '/src/main.c', line: 3 }, { name: 'solve' }, { name: 'io' }] },
        profiles: [
          {
            type: 'evented',
            name: 'thread 1',
            unit: 'milliseconds',
            startValue: 0,
            endValue: 10,
            events: [
              { type: 'O', frame: 0, at: 0 },
              { type: 'O', frame: 1, at: 1 },
              { type: 'C', frame: 1, at: 6 },
              { type: 'O', frame: 2, at: 7 },
              { type: 'C', frame: 2, at: 9 },
              { type: 'C', frame: 0, at: 10 },
            ],
          },
          {
            type: 'sampled',
            name: 'samples',
            unit: 'none',
            startValue: 0,
            endValue: 3,
            samples: [[0, 1], [0, 2], [0]],
            weights: [2, 1, 1],
          },
        ],
      }),
    ),
  'trace.json': path =>
    text(
      path,
      JSON.stringify({
        traceEvents: [
          { name: 'process_name', ph: 'M', pid: 1, args: { name: 'app' } },
          { name: 'main', ph: 'B', ts: 0, pid: 1, tid: 1 },
          { name: 'solve', ph: 'X', ts: 5, dur: 20, pid: 1, tid: 1, args: { n: 3 } },
          {
            name: 'cudaMemcpy',
            ph: 'X',
            ts: 30,
            dur: 4,
            pid: 1,
            tid: 1,
            cat: 'cuda_runtime',
            args: { correlation: 9 },
          },
          {
            name: 'Memcpy HtoD (Pageable -> Device)',
            ph: 'X',
            ts: 31,
            dur: 2,
            pid: 0,
            tid: 7,
            cat: 'gpu_memcpy',
            args: { correlation: 9, bytes: 4096, device: 0, stream: 7 },
          },
          { name: 'mem', ph: 'C', ts: 10, pid: 1, args: { bytes: 100 } },
          { name: 'main', ph: 'E', ts: 40, pid: 1, tid: 1 },
        ],
        displayTimeUnit: 'ms',
      }),
    ),
};

/** A two-rank CUBE4 profile: main calls solve and MPI_Send, with visits and inclusive time. */
const CUBE: CubeSpec = {
  attrs: { Creator: 'HPC Lens fuzz seed', 'Cube Version': '4.8' },
  regions: [
    { id: 0, name: 'main', mod: '/src/app.c', begin: 10, end: 40, paradigm: 'compiler' },
    { id: 1, name: 'solve', mod: '/src/solve.c', begin: 3, end: 9, paradigm: 'compiler' },
    { id: 2, name: 'MPI_Send', mod: 'MPI', paradigm: 'mpi', role: 'point2point' },
  ],
  cnodes: [
    {
      region: 0,
      line: 10,
      children: [
        { region: 1, line: 12 },
        { region: 2, line: 20 },
      ],
    },
  ],
  processes: [
    { rank: 0, threads: [0] },
    { rank: 1, threads: [0] },
  ],
  metrics: [
    {
      id: 0,
      uniqName: 'visits',
      type: 'EXCLUSIVE',
      dtype: 'UINT64',
      uom: 'occ',
      values: { 0: [1, 1], 1: [4, 4], 2: [2, 0] },
    },
    {
      id: 1,
      uniqName: 'time',
      dispName: 'Time',
      type: 'INCLUSIVE',
      dtype: 'DOUBLE',
      uom: 'sec',
      values: { 0: [10, 12], 1: [6, 9], 2: [1, 0] },
    },
  ],
};

/** An Nsight Systems export in miniature: strings, threads, NVTX ranges, a runtime call and its kernel and copy. */
async function nsightDatabase(): Promise<Buffer> {
  const PID = 4242,
    G_PID = 2 ** 48 + PID * 2 ** 24,
    MAIN = G_PID + PID;
  const tables: Record<string, { cols: string[]; rows: (number | string | null)[][] }> = {
    StringIds: {
      cols: ['id', 'value'],
      rows: [
        [1, 'MPI Rank 0'],
        [2, 'cudaMemcpy'],
        [3, 'cudaLaunchKernel'],
        [4, 'saxpy'],
        [5, 'void saxpy<double>(double*)'],
      ],
    },
    ThreadNames: { cols: ['nameId', 'priority', 'globalTid'], rows: [[1, 0, MAIN]] },
    PROCESSES: { cols: ['globalPid', 'pid', 'name'], rows: [[G_PID, PID, '/bin/app']] },
    NVTX_EVENTS: {
      cols: ['start', 'end', 'eventType', 'text', 'globalTid', 'textId', 'domainId'],
      rows: [[100, 1000, 59, 'step', MAIN, null, 0]],
    },
    CUPTI_ACTIVITY_KIND_RUNTIME: {
      cols: ['start', 'end', 'globalTid', 'correlationId', 'nameId'],
      rows: [
        [200, 400, MAIN, 1, 2],
        [500, 600, MAIN, 2, 3],
      ],
    },
    CUPTI_ACTIVITY_KIND_KERNEL: {
      cols: ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid', 'demangledName', 'shortName'],
      rows: [[650, 950, 0, 7, 2, G_PID, 5, 4]],
    },
    CUPTI_ACTIVITY_KIND_MEMCPY: {
      cols: ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid', 'bytes', 'copyKind'],
      rows: [[250, 390, 0, 7, 1, G_PID, 1 << 20, 1]],
    },
  };
  const SQL = await sqlEngine();
  const db = new SQL.Database();
  try {
    for (const [name, t] of Object.entries(tables)) {
      db.run(`CREATE TABLE "${name}" (${t.cols.map(c => `"${c}"`).join(', ')})`);
      for (const r of t.rows) db.run(`INSERT INTO "${name}" VALUES (${r.map(() => '?').join(', ')})`, r);
    }
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}

/** A Go-style CPU profile: main → work → helper, two sample types, an inlined frame. */
function pprofProfile(): Uint8Array {
  const st = new StringTable();
  const s = (x: string) => st.dedup(x);
  return new PprofProfile({
    sampleType: [
      { type: s('samples'), unit: s('count') },
      { type: s('cpu'), unit: s('nanoseconds') },
    ],
    mapping: [{ id: 1, memoryStart: 0x400000, memoryLimit: 0x500000, filename: s('/bin/app'), hasFunctions: true }],
    function: [
      { id: 1, name: s('main'), filename: s('main.go'), startLine: 10 },
      { id: 2, name: s('work'), filename: s('main.go'), startLine: 20 },
      { id: 3, name: s('helper'), filename: s('util.go'), startLine: 5 },
    ],
    location: [
      { id: 1, mappingId: 1, address: 0x401000, line: [{ functionId: 1, line: 12 }] },
      { id: 2, mappingId: 1, address: 0x402000, line: [{ functionId: 2, line: 22 }] },
      {
        id: 3,
        mappingId: 1,
        address: 0x403000,
        line: [
          { functionId: 3, line: 7 },
          { functionId: 2, line: 25 },
        ],
      },
    ],
    sample: [
      { locationId: [2, 1], value: [5, 50_000_000] },
      { locationId: [3, 1], value: [2, 20_000_000] },
      { locationId: [1], value: [1, 10_000_000] },
    ],
    periodType: { type: s('cpu'), unit: s('nanoseconds') },
    period: 10_000_000,
    durationNanos: 1_000_000_000,
    stringTable: st,
  }).encode();
}
