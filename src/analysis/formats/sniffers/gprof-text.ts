import type { FileSample, FormatSniffer } from '../reader';

/** Whether a file is gprof text output: the cheap test the registry runs before loading the reader. */
export const gprofTextSniffer: FormatSniffer = {
  id: 'gprof-text',
  name: 'gprof text output',
  sniff(sample: FileSample): number {
    if (sample.isDirectory || sample.binary) return 0;
    const head = sample.head.slice(0, 16384);
    if (/^\f?\s*Flat profile:\s*$/m.test(head) && /Each sample counts as|%\s+cumulative\s+self/.test(head)) return 0.95;
    if (
      /^\s*Call graph(?: \(explanation follows\))?\s*$/m.test(head) &&
      /^granularity: each sample hit covers/m.test(head)
    )
      return 0.9;
    if (/^\s*Flat profile:\s*$/m.test(head)) return 0.5;
    return 0;
  },
};
