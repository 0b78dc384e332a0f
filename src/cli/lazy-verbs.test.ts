import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EVALUATED, instrumentLazyInits } from '../../test/support/lazy-inits';
import { bundleNodeScript } from '../../test/support/node-bundle';
import { REPO_ROOT } from '../../test/support/shared-data';

const modulesIn = (folder: string) =>
  readdirSync(join(__dirname, '..', folder))
    .filter(n => n.endsWith('.ts') && !n.endsWith('.test.ts') && n !== 'index.ts' && n !== 'analysis-system.ts')
    .map(n => `${folder.split('/').pop()}/${n.replace(/\.ts$/, '')}`);

/** Every verb module (src/cli/verbs) and every system module (src/service/systems). */
const VERB_MODULES = modulesIn('cli/verbs');
const SYSTEM_MODULES = modulesIn('service/systems');
/** Besides: the in-process analysis service and the ROSS run reader (its sniffer is apart). */
const OTHER_MODULES = ['service/local-analysis-service', 'ross/pdes-run-reader'];

/**
 * The CLI bundled as esbuild.mjs bundles it (one CommonJS file): every verb and every system is an
 * `import()` of its module, a lazy module init in the bundle, so a run evaluates the one verb it runs
 * and the systems that verb uses, and `--help` none. Each of those modules' init notes that it ran.
 */
describe('hpc-lens in its bundle (a verb initialises only its own modules)', () => {
  let dir: string;
  let script: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-lazy-verbs-'));
    script = bundleNodeScript(
      [
        `import { runHpcLens } from ${JSON.stringify(join(__dirname, 'cli-main.ts'))};`,
        `const g = globalThis as { ${EVALUATED}?: string[] };`,
        'const out: string[] = [];',
        'runHpcLens(process.argv.slice(2), { out: t => out.push(t), err: t => out.push(t) }).then(code =>',
        `  console.log(JSON.stringify({ code, out: out.join(''), evaluated: g.${EVALUATED} ?? [] })),`,
        ');',
      ],
      join(dir, 'hpc-lens.js'),
      __dirname,
    );
    assert.ok(VERB_MODULES.length >= 11 && SYSTEM_MODULES.length >= 5, `${VERB_MODULES} ${SYSTEM_MODULES}`);
    instrumentLazyInits(script, [...VERB_MODULES, ...SYSTEM_MODULES, ...OTHER_MODULES]);
    writeFileSync(join(dir, 'small.folded'), 'main;solve;kernel 10\nmain;io 3\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]): { code: number; out: string; evaluated: string[] } => {
    const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { code: number; out: string; evaluated: string[] };
  };

  it('--help lists every verb and initialises none of them', () => {
    const r = run('--help');
    assert.equal(r.code, 0);
    for (const verb of VERB_MODULES) assert.match(r.out, new RegExp(`^  ${verb.split('/')[1]} `, 'm'), verb);
    assert.deepEqual(r.evaluated, []);
  });

  it('a verb’s --help initialises that verb only', () => {
    const r = run('callflow', '--help');
    assert.match(r.out, /^usage: hpc-lens callflow/);
    assert.deepEqual(r.evaluated, ['verbs/callflow']);
  });

  it('summary of a profile initialises the summary verb and no system', () => {
    const r = run('summary', '--json', join(dir, 'small.folded'));
    assert.equal(r.code, 0);
    const summary = JSON.parse(r.out) as { topFunctions: { name: string }[] };
    assert.deepEqual(summary.topFunctions.map(f => f.name).sort(), ['io', 'kernel']);
    assert.deepEqual(r.evaluated, ['verbs/summary']);
  });

  it('inspect of a profile initialises the inspect verb and neither the service nor a system', () => {
    const r = run('inspect', '--json', join(dir, 'small.folded'));
    assert.equal(r.code, 0);
    assert.equal((JSON.parse(r.out) as { format: string }).format, 'folded-stacks');
    assert.deepEqual(r.evaluated, ['verbs/inspect']);
  });

  it('inspect of memory samples initialises the service and the memory system only', () => {
    const r = run('inspect', '--json', join(REPO_ROOT, 'test/fixtures/memory/perf-mem-script-hand-made.txt'));
    assert.equal(r.code, 0);
    assert.equal((JSON.parse(r.out) as { format: string }).format, 'perf-mem');
    assert.deepEqual(r.evaluated.sort(), ['service/local-analysis-service', 'systems/memory-system', 'verbs/inspect']);
  });
});
