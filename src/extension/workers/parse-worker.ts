/**
 * Worker-thread entry: reads one profile off the extension host's thread and sends back the
 * columnar model with its typed-array buffers transferred (no copy). Cancellation is the host
 * terminating this worker, which stops it wherever it is.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readProfile } from '../../analysis/formats';
import type { ParseRequest, ParseResponse } from './parse-protocol';

const port = parentPort;
if (!port) throw new Error('parse-worker must run in a worker thread');
const post = (msg: ParseResponse, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

const { path } = workerData as ParseRequest;
let last = -1;
readProfile(path, {
  onProgress: (fraction, message) => {
    // At most ~100 progress messages per file.
    const step = Math.floor(fraction * 100);
    if (step !== last) { last = step; post({ type: 'progress', fraction, message }); }
  },
}).then(
  profile => {
    const { data, transfer } = profile.toTransferable();
    post({ type: 'done', data }, transfer);
  },
  (e: Error) => post({ type: 'error', name: e.name, message: e.message }),
);
