import { contentHead, type FileSample, type FormatSniffer } from '../reader';

const CALIPER_KEY = /"(path|mpi\.rank|function|region|annotation|loop|[^"{}[\]]*#[^"{}[\]]*)"\s*:/;

/** Whether a file is Caliper json (cali-query records): the cheap test the registry runs before loading the reader. */
export const caliperJsonRecordsSniffer: FormatSniffer = {
  id: 'caliper-json-records',
  name: 'Caliper json (cali-query records)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    // Each expression only where its first character is: they are compiled on first use in every process.
    if (head.startsWith('{')) return /^\{\s*"records"\s*:\s*\[/.test(head) ? 0.9 : 0;
    const first = head.startsWith('[') ? /^\[\s*\{([^{}[\]]*)\}/.exec(head) : null;
    // A flat first record (no nested values: not a Hatchet literal or a trace event) with a Caliper key.
    if (!first || !CALIPER_KEY.test(first[0]) || /"ph"\s*:/.test(first[1]!)) return 0;
    return 0.85;
  },
};
