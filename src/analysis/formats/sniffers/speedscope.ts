import { contentHead, type FileSample, type FormatSniffer } from '../reader';

/** Whether a file is speedscope JSON: the cheap test the registry runs before loading the reader. */
export const speedscopeSniffer: FormatSniffer = {
  id: 'speedscope',
  name: 'speedscope JSON',
  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = contentHead(sample);
    if (!head.startsWith('{')) return 0;
    if (/speedscope\.app\/file-format-schema\.json/.test(head)) return 0.95;
    if (/"exporter"\s*:\s*"speedscope@/.test(head)) return 0.9;
    return /"shared"\s*:\s*\{\s*"frames"\s*:/.test(head) && /"profiles"\s*:/.test(head) ? 0.7 : 0;
  },
};
