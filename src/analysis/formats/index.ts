import type { Profile } from '../model/profile';
import { caliperCaliReader } from './caliper-cali';
import { caliperExpandReader } from './caliper-expand';
import { caliperJsonRecordsReader } from './caliper-json-records';
import { caliperJsonSplitReader } from './caliper-json-split';
import { callgrindReader } from './callgrind';
import { cubeReader } from './cube';
import { sampleFile } from './file-sample';
import { gprof2dotDotReader } from './gprof2dot-dot';
import { gprofTextReader } from './gprof-text';
import { hpctoolkitMetaDbReader } from './hpctoolkit-metadb';
import { hpctoolkitXmlReader } from './hpctoolkit-xml';
import { ProfileReadError, type FileSample, type ProfileReader, type ReadOptions } from './reader';
import { tauProfileReader } from './tau-profile';

/** Every reader HPC Lens has, consulted by content sniffing (never by file extension alone). */
export const READERS: readonly ProfileReader[] = [caliperJsonSplitReader, caliperCaliReader, caliperJsonRecordsReader, caliperExpandReader, hpctoolkitMetaDbReader, hpctoolkitXmlReader, cubeReader, tauProfileReader, gprofTextReader, gprof2dotDotReader, callgrindReader];

/** The reader most confident that the sample is its format, or null. */
export function chooseReader(sample: FileSample, readers: readonly ProfileReader[] = READERS): ProfileReader | null {
  let best: ProfileReader | null = null;
  let bestScore = 0;
  for (const r of readers) {
    const s = r.sniff(sample);
    if (s > bestScore) { best = r; bestScore = s; }
  }
  return best;
}

/** Detects the format of a file or directory and reads it into the profile model. */
export async function readProfile(path: string, options: ReadOptions = {}): Promise<Profile> {
  let sample: FileSample;
  try {
    sample = await sampleFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new ProfileReadError(path, reason, { cause: e });
  }
  if (!sample.isDirectory && sample.size === 0) throw new ProfileReadError(path, 'the file is empty');
  const reader = chooseReader(sample);
  if (!reader) {
    throw new ProfileReadError(path, `not a recognised profile format (HPC Lens reads: ${READERS.map(r => r.name).join(', ')})`);
  }
  return reader.read(path, options);
}

export { ProfileReadError } from './reader';
export type { ProfileReader, ReadOptions } from './reader';
