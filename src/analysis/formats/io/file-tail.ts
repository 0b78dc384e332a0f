import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

export interface FileTailOptions {
  /** Polling interval in milliseconds (default 250); a file-system watch wakes the poll earlier. */
  pollMs?: number;
  /** Largest read (default 1 MiB): a large append arrives in several chunks. */
  chunkBytes?: number;
  /** Stop once the file has not grown for this many milliseconds (default: never). */
  idleMs?: number;
  signal?: AbortSignal;
}

export interface FileTailEvents {
  /** Bytes appended since the previous chunk (a fresh buffer each time). */
  chunk(bytes: Uint8Array, offset: number): void;
  /** The file shrank or was replaced: reading starts over at byte 0 (the callback resets its consumers). */
  restart?(reason: string): void;
}

/**
 * Follows a growing file, reading appended bytes only: each poll compares the size with the bytes
 * read so far and reads the difference. A file that shrinks or is replaced (another inode) starts
 * over from its first byte with a notice — a new run writing to the same name. A file that does not
 * exist yet is waited for. Resolves when `idleMs` passes without growth or the signal aborts.
 */
export async function tailFile(path: string, events: FileTailEvents, options: FileTailOptions = {}): Promise<void> {
  const pollMs = Math.max(5, options.pollMs ?? 250);
  const chunkBytes = Math.max(1, options.chunkBytes ?? 1 << 20);
  const { signal, idleMs } = options;
  let handle: FileHandle | null = null;
  let inode = -1;
  let offset = 0;
  let lastGrowth = Date.now();
  let wake: (() => void) | null = null;
  const watching: { watcher: FSWatcher | null } = { watcher: null };
  const startWatch = () => {
    watching.watcher?.close();
    try {
      watching.watcher = watch(path, { persistent: false }, () => wake?.());
      watching.watcher.on('error', () => undefined);
    } catch {
      watching.watcher = null; // polling alone still works
    }
  };
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (signal?.aborted) return;
      let size = -1;
      try {
        const st = await stat(path);
        size = st.size;
        if (handle && st.ino !== inode) {
          await handle.close();
          handle = null;
          offset = 0;
          events.restart?.(`${path} was replaced: reading it again from the start`);
        }
        if (!handle) {
          handle = await open(path, 'r');
          inode = st.ino;
          startWatch();
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      if (handle && size >= 0) {
        if (size < offset) {
          const message = `${path} shrank from ${offsetText(offset, size)}: reading it again from the start`;
          offset = 0;
          events.restart?.(message);
        }
        while (offset < size) {
          const want = Math.min(chunkBytes, size - offset);
          const buf = new Uint8Array(want);
          const { bytesRead } = await handle.read(buf, 0, want, offset);
          if (bytesRead === 0) break;
          const at = offset;
          offset += bytesRead;
          lastGrowth = Date.now();
          events.chunk(bytesRead === want ? buf : buf.subarray(0, bytesRead), at);
          if (signal?.aborted) return;
        }
      }
      if (idleMs !== undefined && Date.now() - lastGrowth >= idleMs) return;
      await new Promise<void>(resolve => {
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    watching.watcher?.close();
    await handle?.close();
  }
}

function offsetText(offset: number, size: number): string {
  return `${offset.toLocaleString('en-US')} to ${size.toLocaleString('en-US')} bytes`;
}
