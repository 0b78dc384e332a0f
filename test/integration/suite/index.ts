/**
 * Extension-host test entry (the `run()` that @vscode/test-electron and the offline harness call).
 * Bundled by esbuild to dist/test/suite/index.js together with the suites it imports.
 */
import Mocha from 'mocha';
import { registerCompareSuites } from './compare.itest';
import { registerSuites } from './extension.itest';
import { registerFormatSuites } from './formats.itest';
import { registerHoverSuites } from './hover.itest';
import { registerRemappingSuites } from './remapping.itest';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60000, color: false, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'extension.itest', mocha);
  // The format suite runs first: the main suite ends by leaving the demo state for the screenshot.
  registerFormatSuites();
  registerHoverSuites();
  registerRemappingSuites();
  registerCompareSuites();
  registerSuites();
  return new Promise((resolve, reject) => {
    const runner = mocha.run(failures => {
      console.log(`HPC_LENS_RESULT passed=${runner.stats?.passes ?? 0} failed=${failures}`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`)); else resolve();
    });
  });
}
