import type { FileSample, FormatSniffer } from '../reader';

/** A rank's profile file: profile.<node>.<context>.<thread>, maybe gzipped. */
export const PROFILE_FILE = /^profile\.(\d+)\.(\d+)\.(\d+)(?:\.gz)?$/;
/** A directory of one metric's profile files when TAU measured several. */
export const MULTI_DIR = /^MULTI__(.+)$/;
/** The first line of a profile file. */
const HEADER = /^\s*\d+\s+templated_functions/;

/** Whether a file is TAU profile: the cheap test the registry runs before loading the reader. */
export const tauProfileSniffer: FormatSniffer = {
  id: 'tau-profile',
  name: 'TAU profile',
  sniff(sample: FileSample): number {
    // A cheap test before each expression: they are compiled on first use in every process, and most
    // files and folders sniffed here are of other formats.
    if (sample.isDirectory) {
      if (sample.entries.some(e => e.startsWith('profile.') && PROFILE_FILE.test(e))) return 0.9;
      if (sample.entries.some(e => e.startsWith('MULTI__') && MULTI_DIR.test(e))) return 0.8;
      return 0;
    }
    const first = sample.head.trimStart().charCodeAt(0);
    if (!(first >= 48 && first <= 57)) return 0;
    return HEADER.test(sample.head) && /^#\s*Name\s+Calls\s+Subrs/m.test(sample.head.slice(0, 4096)) ? 0.95 : 0;
  },
};
