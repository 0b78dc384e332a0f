/**
 * dist/bench.js: runs the bench sections named on the command line (bench.ts). Kept apart from
 * bench.ts so that importing the sections (as bench.test.ts does) runs nothing.
 */
import { main } from './bench';

main().catch(e => {
  console.error(e);
  process.exit(1);
});
