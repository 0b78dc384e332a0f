import type { FileSample, FormatSniffer, ProfileReader } from './reader';
import { caliperCaliSniffer } from './sniffers/caliper-cali';
import { caliperExpandSniffer } from './sniffers/caliper-expand';
import { caliperJsonRecordsSniffer } from './sniffers/caliper-json-records';
import { caliperJsonSplitSniffer } from './sniffers/caliper-json-split';
import { callgrindSniffer } from './sniffers/callgrind';
import { chromeTraceSniffer } from './sniffers/chrome-trace';
import { cubeSniffer } from './sniffers/cube';
import { foldedStacksSniffer } from './sniffers/folded-stacks';
import { gprofTextSniffer } from './sniffers/gprof-text';
import { gprof2dotDotSniffer } from './sniffers/gprof2dot-dot';
import { hatchetLiteralSniffer } from './sniffers/hatchet-literal';
import { hpctoolkitMetaDbSniffer } from './sniffers/hpctoolkit-metadb';
import { hpctoolkitXmlSniffer } from './sniffers/hpctoolkit-xml';
import { nsightSqliteSniffer } from './sniffers/nsight-sqlite';
import { otf2Sniffer } from './sniffers/otf2';
import { perfScriptSniffer } from './sniffers/perf-script';
import { pprofSniffer } from './sniffers/pprof';
import { speedscopeSniffer } from './sniffers/speedscope';
import { tauProfileSniffer } from './sniffers/tau-profile';

/**
 * A profile format: its sniffer (a small module, always loaded) and how to load its reader. In the
 * Node bundles (esbuild.mjs) each `import()` below becomes a lazy module init inside the one bundle,
 * so a process evaluates the sniffers plus the one reader that matched (lazy-readers.test.ts).
 */
export interface ProfileFormat extends FormatSniffer {
  /** The format's reader; the same object on every call (the module is loaded once). */
  load(): Promise<ProfileReader>;
}

function format(sniffer: FormatSniffer, load: () => Promise<ProfileReader>): ProfileFormat {
  return { ...sniffer, load };
}

/**
 * Every format HPC Lens reads, consulted by content sniffing (never by file extension alone). The
 * order decides ties: the first of equally confident sniffers wins.
 */
export const FORMATS: readonly ProfileFormat[] = [
  format(caliperJsonSplitSniffer, () => import('./caliper-json-split').then(m => m.caliperJsonSplitReader)),
  format(caliperCaliSniffer, () => import('./caliper-cali').then(m => m.caliperCaliReader)),
  format(caliperJsonRecordsSniffer, () => import('./caliper-json-records').then(m => m.caliperJsonRecordsReader)),
  format(caliperExpandSniffer, () => import('./caliper-expand').then(m => m.caliperExpandReader)),
  format(hatchetLiteralSniffer, () => import('./hatchet-literal').then(m => m.hatchetLiteralReader)),
  format(hpctoolkitMetaDbSniffer, () => import('./hpctoolkit-metadb').then(m => m.hpctoolkitMetaDbReader)),
  format(hpctoolkitXmlSniffer, () => import('./hpctoolkit-xml').then(m => m.hpctoolkitXmlReader)),
  format(cubeSniffer, () => import('./cube').then(m => m.cubeReader)),
  format(tauProfileSniffer, () => import('./tau-profile').then(m => m.tauProfileReader)),
  format(gprofTextSniffer, () => import('./gprof-text').then(m => m.gprofTextReader)),
  format(gprof2dotDotSniffer, () => import('./gprof2dot-dot').then(m => m.gprof2dotDotReader)),
  format(callgrindSniffer, () => import('./callgrind').then(m => m.callgrindReader)),
  format(chromeTraceSniffer, () => import('./chrome-trace').then(m => m.chromeTraceReader)),
  format(nsightSqliteSniffer, () => import('./nsight-sqlite').then(m => m.nsightSqliteReader)),
  format(pprofSniffer, () => import('./pprof').then(m => m.pprofReader)),
  format(otf2Sniffer, () => import('./otf2').then(m => m.otf2Reader)),
  format(perfScriptSniffer, () => import('./perf-script').then(m => m.perfScriptReader)),
  format(foldedStacksSniffer, () => import('./folded-stacks').then(m => m.foldedStacksReader)),
  format(speedscopeSniffer, () => import('./speedscope').then(m => m.speedscopeReader)),
];

/** The highest confidence a sniffer gives (`FormatSniffer.sniff` never returns more). */
export const CERTAIN = 0.95;

/** The format most confident that the sample is its own, or null. */
export function chooseFormat(sample: FileSample): ProfileFormat | null;
export function chooseFormat<T extends FormatSniffer>(sample: FileSample, formats: readonly T[]): T | null;
export function chooseFormat(sample: FileSample, formats: readonly FormatSniffer[] = FORMATS): FormatSniffer | null {
  return bestFormat(sample, formats)?.format ?? null;
}

/** The format most confident that the sample is its own, with its confidence; null when none claims it. */
export function bestFormat<T extends FormatSniffer = ProfileFormat>(
  sample: FileSample,
  formats: readonly T[] = FORMATS as readonly FormatSniffer[] as readonly T[],
): { format: T; score: number } | null {
  let best: { format: T; score: number } | null = null;
  for (const format of formats) {
    const score = format.sniff(sample);
    if (score > (best?.score ?? 0)) best = { format, score };
    // No later sniffer can beat the highest confidence (ties go to the first), so the rest are not
    // run: in a fresh process each runs cold, and a small file's whole read is a few milliseconds.
    if (score >= CERTAIN) break;
  }
  return best;
}
