// `npm test`'s last stage: the VSIX builds (`npm run package`: the production bundles, the
// third-party notices and `vsce package`), holds what the extension needs and none of the sources,
// tests or notes; then the development build is put back in dist/. vsce refuses a README whose
// relative links it cannot rewrite, among other things only packaging finds.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });

const packaged = run(npm, ['run', 'package']);
const problems = [];
if (packaged.status !== 0) problems.push(`npm run package exited with ${packaged.status}`);
else {
  // Entry names are stored as plain bytes in a zip's headers: enough to say what it holds.
  const vsix = readFileSync(join(root, 'dist', 'hpc-lens.vsix')).toString('latin1');
  const required = [
    'extension/package.json',
    // The manifest's %key% strings: without it an installed extension shows the keys.
    'extension/package.nls.json',
    'extension/readme.md', // vsce's name for README.md
    'extension/dist/extension.js',
    'extension/dist/analysis-worker.js',
    'extension/dist/analysis-worker-main.js',
    'extension/dist/cli.js',
    'extension/dist/cli-main.js',
    'extension/dist/webview.js',
    'extension/dist/sql-wasm.wasm',
    'extension/media/',
  ];
  const forbidden = ['extension/src/', 'extension/test/', 'extension/docs/', 'extension/node_modules/', '.map'];
  for (const name of required) if (!vsix.includes(name)) problems.push(`the VSIX lacks ${name}`);
  for (const name of forbidden) if (vsix.includes(name)) problems.push(`the VSIX holds ${name}`);
}
const rebuilt = run(process.execPath, ['esbuild.mjs']);
if (rebuilt.status !== 0) problems.push('the development build could not be put back');
for (const p of problems) console.error(`package: ${p}`);
console.log(problems.length ? 'package: failed' : 'package: the VSIX builds and holds what it should');
process.exit(problems.length ? 1 : 0);
