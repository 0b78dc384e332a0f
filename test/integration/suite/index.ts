/**
 * Extension-host test entry (the `run()` that @vscode/test-electron and the offline harness call).
 * Bundled by esbuild to dist/test/suite/index.js together with the suites it imports.
 */
import { readFileSync } from 'node:fs';
import Mocha from 'mocha';
import { registerCallflowSuites } from './callflow.itest';
import { registerCompareSuites } from './compare.itest';
import { registerDataMovementSuites } from './data-movement.itest';
import { registerDmvSuites } from './dmv.itest';
import { registerDatasetSuites, registerReloadSuites } from './datasets.itest';
import { registerEditingSuites } from './editing.itest';
import { registerEnsembleSuites } from './ensemble.itest';
import { registerEnsembleViewSuites } from './ensemble-views.itest';
import { registerSuites } from './extension.itest';
import { registerFormatSuites } from './formats.itest';
import { registerHoverSuites } from './hover.itest';
import { registerRemappingSuites } from './remapping.itest';
import { registerResponsivenessSuites } from './responsiveness.itest';
import { registerSuperGraphSuites } from './super-graph.itest';
import { registerTimelineSuites } from './timeline.itest';
import { registerTraceAnalysisSuites } from './trace-analysis.itest';
import { registerPdesMonitorSuites } from './pdes-monitor.itest';
import { registerUntrustedSuites } from './workspace-trust.itest';
import { registerMemorySuites } from './memory.itest';
import { registerRealDataSuites } from './real-data.itest';
import { registerPdesSuites } from './pdes.itest';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60000, color: false, reporter: 'spec' });
  // Development: HPC_LENS_ITEST_GREP=timeline runs only the matching tests.
  if (process.env.HPC_LENS_ITEST_GREP) mocha.grep(new RegExp(process.env.HPC_LENS_ITEST_GREP));
  mocha.suite.emit('pre-require', globalThis, 'extension.itest', mocha);
  // The harness runs a second phase after reloading the window (see run-in-vscode.mjs).
  const phaseFile = process.env.HPC_LENS_ITEST_PHASE_FILE;
  const phase = phaseFile ? readFileSync(phaseFile, 'utf8').trim() : '1';
  if (phase === 'untrusted') {
    registerUntrustedSuites();
  } else if (phase === '2') {
    registerReloadSuites(2);
  } else {
    // The format suite runs first: the main suite ends by leaving the demo state for the screenshot.
    registerFormatSuites();
    registerHoverSuites();
    registerRemappingSuites();
    registerCompareSuites();
    registerEditingSuites();
    registerSuperGraphSuites();
    registerCallflowSuites();
    registerDatasetSuites();
    registerEnsembleSuites();
    registerEnsembleViewSuites();
    registerDataMovementSuites();
    registerDmvSuites();
    registerTimelineSuites();
    registerTraceAnalysisSuites();
    registerResponsivenessSuites();
    registerMemorySuites();
    registerRealDataSuites();
    registerPdesMonitorSuites();
    registerPdesSuites();
    registerSuites();
    // Last: leaves the datasets that phase 2 expects back after the reload.
    registerReloadSuites(1);
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run(failures => {
      console.log(`HPC_LENS_RESULT passed=${runner.stats?.passes ?? 0} failed=${failures}`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
  });
}
