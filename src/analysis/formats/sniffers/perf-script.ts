import type { FileSample, FormatSniffer } from '../reader';
import { parseSampleHeader } from '../perf-script/lines';

/** Whether a file is Linux perf script: the cheap test the registry runs before loading the reader. */
export const perfScriptSniffer: FormatSniffer = {
  id: 'perf-script',
  name: 'Linux perf script',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const lines = sample.head.split('\n', 200);
    let k = 0;
    while (k < lines.length && (lines[k]!.startsWith('#') || !lines[k]!.trim())) k++;
    if (k > 0 && /^# perf version :/m.test(sample.head) && /^# =+\s*$/m.test(sample.head)) return 0.9;
    const h = k < lines.length ? parseSampleHeader(lines[k]!.replace(/\r$/, '')) : null;
    if (!h || !h.seconds) return 0;
    const next = lines[k + 1];
    if (next !== undefined && /^\s+[0-9a-fA-F]+ \S/.test(next)) return 0.9;
    return h.event ? 0.5 : 0;
  },
};
