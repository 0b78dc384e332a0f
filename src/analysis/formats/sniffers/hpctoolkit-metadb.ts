import { join } from 'node:path';
import { readHeadBytes } from '../file-sample';
import { isMetaDbHead } from '../hpctoolkit-metadb/db-file';
import type { FileSample, FormatSniffer } from '../reader';

/** The first bytes of a file (gunzipped when compressed), decoded as text, for sniffing a directory. */
function fileHead(path: string): string {
  return readHeadBytes(path, 256).subarray(0, 64).toString('latin1');
}

/** Whether a file is HPCToolkit database v4 (meta.db): the cheap test the registry runs before loading the reader. */
export const hpctoolkitMetaDbSniffer: FormatSniffer = {
  id: 'hpctoolkit-metadb',
  name: 'HPCToolkit database v4 (meta.db)',
  sniff(sample: FileSample): number {
    if (!sample.isDirectory) return isMetaDbHead(sample.head) ? 0.95 : 0;
    const meta = ['meta.db', 'meta.db.gz'].find(e => sample.entries.includes(e));
    return meta && isMetaDbHead(fileHead(join(sample.path, meta))) ? 0.9 : 0;
  },
};
