// A worker-thread entry for tests: the monitor session behind a message port, as the extension's
// analysis service runs it (the host forwards the session's messages to the live panel).
import { parentPort } from 'node:worker_threads';
import type { ToMonitor } from '../monitor-protocol';
import { MonitorSession } from '../monitor-session';

const port = parentPort!;
const session = new MonitorSession(message => port.postMessage(message));
port.on('message', (message: ToMonitor) => void session.handle(message));
