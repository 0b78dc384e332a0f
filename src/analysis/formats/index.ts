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
import { hatchetLiteralReader } from './hatchet-literal';
import { hpctoolkitMetaDbReader } from './hpctoolkit-metadb';
import { hpctoolkitXmlReader } from './hpctoolkit-xml';
import { findProfiles } from './profile-folder';
import { ProfileReadError, type FileSample, type ProfileReader, type ReadOptions } from './reader';
import { tauProfileReader } from './tau-profile';

/** Every reader HPC Lens has, consulted by content sniffing (never by file extension alone). */
export const READERS: readonly ProfileReader[] = [caliperJsonSplitReader, caliperCaliReader, caliperJsonRecordsReader, caliperExpandReader, hatchetLiteralReader, hpctoolkitMetaDbReader, hpctoolkitXmlReader, cubeReader, tauProfileReader, gprofTextReader, gprof2dotDotReader, callgrindReader];

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
    if (sample.isDirectory) {
      // A folder of runs is no single profile; say what it holds so the caller can offer an ensemble.
      const { profiles } = await findProfiles(path, { signal: options.signal });
      if (profiles.length > 0) {
        const names = profiles.slice(0, 3).map(p => p.runName).join(', ') + (profiles.length > 3 ? ', …' : '');
        throw new ProfileReadError(path, `a folder of ${profiles.length} profile${profiles.length === 1 ? '' : 's'} (${names}); open it as an ensemble`);
      }
    }
    throw new ProfileReadError(path, `not a recognised profile format (HPC Lens reads: ${READERS.map(r => r.name).join(', ')})`);
  }
  return reader.read(path, options);
}

export { ProfileReadError } from './reader';
export { findProfiles, parametersFromPath } from './profile-folder';
export type { FindProfilesOptions, FolderScan, FoundProfile } from './profile-folder';
export type { ProfileReader, ReadOptions } from './reader';
