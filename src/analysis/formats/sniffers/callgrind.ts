import { withoutBom, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Valgrind callgrind: the cheap test the registry runs before loading the reader. */
export const callgrindSniffer: FormatSniffer = {
  id: 'callgrind',
  name: 'Valgrind callgrind',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = withoutBom(sample.head);
    if (head.startsWith('# callgrind format')) return 0.95;
    const lines = head.split('\n', 40);
    const has = (re: RegExp) => lines.some(l => re.test(l));
    if (!has(/^events: \S/)) return 0;
    if (has(/^version: 1\b/) && has(/^creator: callgrind/)) return 0.9;
    if (has(/^creator: callgrind/) || has(/^(?:version: 1|positions: )/)) return 0.8;
    // cachegrind.out: desc:/cmd:/events: and fl=/fn= cost lines, a subset callgrind's reader reads.
    if (has(/^cmd: /) && /^fn=/m.test(head)) return 0.6;
    return 0;
  },
};
