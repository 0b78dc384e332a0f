import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Caliper .cali: the cheap test the registry runs before loading the reader. */
export const caliperCaliSniffer: FormatSniffer = {
  id: 'caliper-cali',
  name: 'Caliper .cali',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    if (/^__rec=(node|ctx|globals),/.test(head)) return 0.95;
    return head.startsWith('__rec=') ? 0.8 : 0;
  },
};
