import type { Profile } from '../model/profile';
import { sampleFile } from './file-sample';
import { findProfiles } from './profile-folder';
import { checkFiniteValues } from './finite-values';
import { fromFileSystemError } from './io/fs-errors';
import { ProfileReadError, type FileSample, type ReadOptions } from './reader';
import { chooseFormat, FORMATS } from './registry';

/**
 * Detects the format of a file or directory and reads it into the profile model. Bad input ends in
 * a ProfileReadError naming the file and the reason, file-system errors included (a directory where
 * a file should be, a symbolic link loop, permission denied, a file deleted while it was read).
 */
export async function readProfile(path: string, options: ReadOptions = {}): Promise<Profile> {
  try {
    return await readDetected(path, options);
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
}

async function readDetected(path: string, options: ReadOptions): Promise<Profile> {
  const sample: FileSample = await sampleFile(path);
  if (!sample.isDirectory && sample.size === 0) throw new ProfileReadError(path, 'the file is empty');
  const format = chooseFormat(sample);
  if (!format) {
    if (sample.isDirectory) {
      // A folder of runs is no single profile; say what it holds so the caller can offer an ensemble.
      const { profiles } = await findProfiles(path, { signal: options.signal });
      // A folder holding one profile (e.g. gprof/gnu2/gnu2.prof) is that profile.
      if (profiles.length === 1) return readProfile(profiles[0]!.path, options);
      if (profiles.length > 1) {
        const names =
          profiles
            .slice(0, 3)
            .map(p => p.runName)
            .join(', ') + (profiles.length > 3 ? ', …' : '');
        throw new ProfileReadError(path, `a folder of ${profiles.length} profiles (${names}); open it as an ensemble`);
      }
    }
    throw new ProfileReadError(
      path,
      `not a recognised profile format (HPC Lens reads: ${FORMATS.map(r => r.name).join(', ')})`,
    );
  }
  const reader = await format.load();
  const profile = await reader.read(path, options);
  checkFiniteValues(profile);
  return profile;
}

export { ProfileReadError } from './reader';
export { bestFormat, chooseFormat, FORMATS } from './registry';
export type { ProfileFormat } from './registry';
export { sampleFile } from './file-sample';
export { findProfiles, parametersFromPath } from './profile-folder';
export type { FindProfilesOptions, FolderScan, FoundProfile } from './profile-folder';
export type { FormatSniffer, ProfileReader, ReadOptions } from './reader';
