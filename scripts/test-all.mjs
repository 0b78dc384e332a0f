// `npm test`: type checks, lint, unit tests, the build, the extension-host tests in a real VS Code,
// and the VSIX. Every stage runs even if an earlier one failed, so one run shows everything; the exit
// code is non-zero if any failed, and the last line totals the tests.
import { spawn } from 'node:child_process';

const stages = [
  ['type check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['type check (webview)', 'npx', ['tsc', '-p', 'webview-ui/tsconfig.json', '--noEmit']],
  ['lint', 'npm', ['run', 'lint']],
  ['unit tests', process.execPath, ['scripts/run-unit-tests.mjs']],
  ['build', process.execPath, ['esbuild.mjs']],
  [
    'extension-host tests (real VS Code)',
    process.execPath,
    ['test/integration/harness/run-in-vscode.mjs', ...process.argv.slice(2)],
  ],
  // Last: it builds the production bundles into dist/ and then puts the development build back.
  ['package (VSIX)', process.execPath, ['scripts/check-package.mjs']],
];

function run(label, cmd, args) {
  console.log(`\n=== ${label} ===`);
  return new Promise(resolve => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', d => {
      process.stdout.write(d);
      out += d;
    });
    child.on('close', code => resolve({ code: code ?? 1, out }));
  });
}

let passed = 0,
  failed = 0;
const failedStages = [];
for (const [label, cmd, args] of stages) {
  const { code, out } = await run(label, cmd, args);
  // Node's test runner prints "ℹ pass N"/"ℹ fail N"; the VS Code harness prints "integration: N passed, N failed".
  const unitPass = /ℹ pass (\d+)/.exec(out),
    unitFail = /ℹ fail (\d+)/.exec(out);
  const integ = /integration: (\d+) passed, (\d+) failed/.exec(out);
  if (unitPass) {
    passed += Number(unitPass[1]);
    failed += Number(unitFail?.[1] ?? 0);
  }
  if (integ) {
    passed += Number(integ[1]);
    failed += Number(integ[2]);
  }
  if (code !== 0) failedStages.push(label);
}
if (failedStages.length) console.log(`\nfailed stages: ${failedStages.join(', ')}`);
if (failedStages.length && failed === 0) failed = failedStages.length;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedStages.length ? 1 : 0);
