import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Caliper expand (cali-query): the cheap test the registry runs before loading the reader. */
export const caliperExpandSniffer: FormatSniffer = {
  id: 'caliper-expand',
  name: 'Caliper expand (cali-query)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory || sample.binary) return 0;
    // The first 21 non-blank lines, trimmed: no more are judged, so the rest of the head is not split.
    const head = withoutBom(sample.head);
    const lines: string[] = [];
    for (let start = 0; start <= head.length && lines.length < 21;) {
      let end = head.indexOf('\n', start);
      if (end < 0) end = head.length;
      const line = head.slice(start, end).trim();
      if (line) lines.push(line);
      start = end + 1;
    }
    // The last sampled line may be cut short; judge the complete ones (or the only one), at most 20.
    const whole = lines.length === 21 ? lines.slice(0, 20) : lines.length > 1 ? lines.slice(0, -1) : lines;
    // A line without `=` fails before the expression, which is compiled on first use in every process.
    if (whole.length === 0 || whole.some(l => !l.includes('=') || !/^[^=,\s"{}[\]#_][^=,]*=/.test(l))) return 0;
    const caliperKey = /(^|,)(path|function|region|annotation|loop|mpi\.function|mpi\.rank|[^=,]*#[^=,]*)=/;
    return whole.some(l => caliperKey.test(l)) ? 0.7 : 0;
  },
};
