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
    if (sample.isDirectory) {
      if (sample.entries.some(e => PROFILE_FILE.test(e))) return 0.9;
      if (sample.entries.some(e => MULTI_DIR.test(e))) return 0.8;
      return 0;
    }
    return HEADER.test(sample.head) && /^#\s*Name\s+Calls\s+Subrs/m.test(sample.head.slice(0, 4096)) ? 0.95 : 0;
  },
};
