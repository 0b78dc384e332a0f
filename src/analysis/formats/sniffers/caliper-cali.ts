import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Caliper .cali: the cheap test the registry runs before loading the reader. */
export const caliperCaliSniffer: FormatSniffer = {
  id: 'caliper-cali',
  name: 'Caliper .cali',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    // The expression only where it can match: it is compiled on first use in every process, which
    // sniffs most files with it.
    if (!head.startsWith('__rec=')) return 0;
    return /^__rec=(node|ctx|globals),/.test(head) ? 0.95 : 0.8;
  },
};
