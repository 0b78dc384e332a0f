import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Caliper expand (cali-query): the cheap test the registry runs before loading the reader. */
export const caliperExpandSniffer: FormatSniffer = {
  id: 'caliper-expand',
  name: 'Caliper expand (cali-query)',
  sniff(sample: FileSample): number {
    if (sample.isDirectory || sample.binary) return 0;
    const lines = withoutBom(sample.head)
      .split('\n')
      .map(l => l.trim())
      .filter(Boolean);
    // The last sampled line may be cut short; judge the complete ones (or the only one).
    const whole = lines.length > 1 ? lines.slice(0, -1).slice(0, 20) : lines;
    if (whole.length === 0 || whole.some(l => !/^[^=,\s"{}[\]#_][^=,]*=/.test(l))) return 0;
    const caliperKey = /(^|,)(path|function|region|annotation|loop|mpi\.function|mpi\.rank|[^=,]*#[^=,]*)=/;
    return whole.some(l => caliperKey.test(l)) ? 0.7 : 0;
  },
};
