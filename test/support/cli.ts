import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './shared-data';

/** Runs `hpc-lens ARGS…` from the sources (node --import tsx) in the repository root. */
export function runCli(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/cli/hpc-lens.ts'), ...args], {
    encoding: 'utf8',
    cwd: REPO_ROOT,
  });
}
