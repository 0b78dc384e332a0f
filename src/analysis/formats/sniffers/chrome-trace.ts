import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is Chrome trace-event JSON: the cheap test the registry runs before loading the reader. */
export const chromeTraceSniffer: FormatSniffer = {
  id: 'chrome-trace',
  name: 'Chrome trace-event JSON',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    if (head.startsWith('{')) {
      if (/"traceEvents"\s*:/.test(head)) return 0.95;
      return /"ph"\s*:\s*"/.test(head) &&
        /^\{\s*"(schemaVersion|deviceProperties|displayTimeUnit|otherData|metadata)"/.test(head)
        ? 0.6
        : 0;
    }
    if (head.startsWith('[')) {
      if (/^\[\s*\]?\s*$/.test(head)) return 0.3;
      return /^\[\s*\{[^{}]*"ph"\s*:\s*"[A-Za-z]"/.test(head) ? 0.9 : 0;
    }
    return 0;
  },
};
