import type * as NodeZlib from 'node:zlib';

let loaded: typeof NodeZlib | undefined;

/**
 * node:zlib, loaded on first use rather than when the bundle loads: loading it costs a fresh process
 * about 1.5 ms and 200 KB of young heap (Node 20), which a read of an uncompressed profile never
 * needs; that heap was enough to make the first small read pay a scavenge of everything the bundle
 * had just allocated.
 */
export function zlib(): typeof NodeZlib {
  return (loaded ??= require('node:zlib') as typeof NodeZlib);
}
