import type { FileSample, ProfileReader } from './reader';
import { caliperCaliReader } from './caliper-cali';
import { caliperExpandReader } from './caliper-expand';
import { caliperJsonRecordsReader } from './caliper-json-records';
import { caliperJsonSplitReader } from './caliper-json-split';
import { callgrindReader } from './callgrind';
import { chromeTraceReader } from './chrome-trace';
import { cubeReader } from './cube';
import { foldedStacksReader } from './folded-stacks';
import { gprof2dotDotReader } from './gprof2dot-dot';
import { gprofTextReader } from './gprof-text';
import { hatchetLiteralReader } from './hatchet-literal';
import { hpctoolkitMetaDbReader } from './hpctoolkit-metadb';
import { hpctoolkitXmlReader } from './hpctoolkit-xml';
import { nsightSqliteReader } from './nsight-sqlite';
import { otf2Reader } from './otf2';
import { perfScriptReader } from './perf-script';
import { pprofReader } from './pprof';
import { speedscopeReader } from './speedscope';
import { tauProfileReader } from './tau-profile';

/** Every reader HPC Lens has, consulted by content sniffing (never by file extension alone). */
export const READERS: readonly ProfileReader[] = [
  caliperJsonSplitReader,
  caliperCaliReader,
  caliperJsonRecordsReader,
  caliperExpandReader,
  hatchetLiteralReader,
  hpctoolkitMetaDbReader,
  hpctoolkitXmlReader,
  cubeReader,
  tauProfileReader,
  gprofTextReader,
  gprof2dotDotReader,
  callgrindReader,
  chromeTraceReader,
  nsightSqliteReader,
  pprofReader,
  otf2Reader,
  perfScriptReader,
  foldedStacksReader,
  speedscopeReader,
];

/** The reader most confident that the sample is its format, or null. */
export function chooseReader(sample: FileSample, readers: readonly ProfileReader[] = READERS): ProfileReader | null {
  return bestReader(sample, readers)?.reader ?? null;
}

/** The reader most confident that the sample is its format, with its confidence; null when none claims it. */
export function bestReader(
  sample: FileSample,
  readers: readonly ProfileReader[] = READERS,
): { reader: ProfileReader; score: number } | null {
  let best: { reader: ProfileReader; score: number } | null = null;
  for (const reader of readers) {
    const score = reader.sniff(sample);
    if (score > (best?.score ?? 0)) best = { reader, score };
  }
  return best;
}
