/**
 * dist/read-once.js: runs dist/read-once-main.js (read-once.ts) as the CLI runs its bundle, with the
 * V8 code cache in $HPC_LENS_CODE_CACHE (`off`: none), so the bench's first reads in fresh processes
 * meet the code the product's processes meet.
 */
import { join } from 'node:path';
import { launchWithUserCodeCache } from '../src/service/code-cache';

launchWithUserCodeCache(join(__dirname, 'read-once-main.js'), process.argv.slice(2, 3));
