/**
 * `node dist/read-once.js PATH`: reads one profile in a fresh process and prints the milliseconds
 * the read took, after the module is loaded (`--cpu`: also the process's CPU milliseconds of the read,
 * on the same line after a `/`). That is how Hatchet's reader timings were taken (fresh
 * Python processes, load time after `import hatchet`), so the bench can compare cold to cold.
 * Started through dist/read-once.js (read-once-launch.ts) it runs with the CLI's code cache, which a
 * run without a usable cache writes afterwards, as the CLI does.
 */
import { readProfile } from '../src/analysis/formats';
import { currentCodeCache } from '../src/service/code-cache';

const path = process.argv[2];
if (!path) {
  console.error('usage: node dist/read-once.js PATH');
  process.exit(2);
}
async function main(): Promise<void> {
  // `--again N` also prints N further reads of the same file, to separate first-use compilation from the read.
  const again = Number(process.argv[process.argv.indexOf('--again') + 1]) || 0;
  const times: string[] = [];
  const cpu0 = process.cpuUsage();
  for (let k = 0; k <= again; k++) {
    // process.hrtime rather than performance.now(): the first use of `performance` loads perf_hooks
    // (~70 KB of young heap) into the process being measured, which no reader needs.
    const started = process.hrtime.bigint();
    await readProfile(path!);
    times.push((Number(process.hrtime.bigint() - started) / 1e6).toFixed(3));
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(
    times.join(' ') + (process.argv.includes('--cpu') ? ` / ${((cpu.user + cpu.system) / 1e3).toFixed(3)}` : ''),
  );
  // Loaded only when it runs, as the CLI does (hpc-lens.ts): the read is measured in a process whose
  // module init is the CLI's, without the warm-up profiles' strings.
  const cache = currentCodeCache();
  if (cache && cache.state !== 'accepted') await import('../src/service/warm-up').then(m => m.warmUp());
}
main().catch(e => {
  console.error((e as Error).message);
  process.exit(1);
});
