import type { FileSample, FormatSniffer } from '../reader';

/** Every SQLite 3 database starts with these 16 bytes. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** Whether a file is Nsight Systems SQLite export: the cheap test the registry runs before loading the reader. */
export const nsightSqliteSniffer: FormatSniffer = {
  id: 'nsight-sqlite',
  name: 'Nsight Systems SQLite export',
  sniff(sample: FileSample): number {
    if (sample.isDirectory || !sample.head.startsWith(SQLITE_MAGIC)) return 0;
    // The schema (CREATE TABLE …) sits in the first pages; an SQLite file without these names is someone else's.
    return /\bStringIds\b/.test(sample.head) && /\b(CUPTI_ACTIVITY_KIND_|NVTX_EVENTS|TARGET_INFO_)/.test(sample.head)
      ? 0.95
      : 0.2;
  },
};
