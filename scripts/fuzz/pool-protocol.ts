/** Messages between the fuzz runner and its pooled children (`pool-child.ts`), over the IPC channel. */

/** Read this input with `hpc-lens inspect --json`. */
export interface PoolRequest {
  id: number;
  path: string;
  /** Collect garbage before measuring the memory left when the child is resident above this. */
  collectAboveBytes: number;
}

export type PoolAnswer =
  | { type: 'ready' }
  | {
      type: 'result';
      id: number;
      /** The CLI's exit code. */
      code: number;
      stdout: string;
      stderr: string;
      /** User + system CPU seconds the input took (`process.cpuUsage` delta). */
      cpuSeconds: number;
      /** Peak resident memory while the input was read (VmHWM, reset before it). */
      peakRssBytes: number;
      /** Resident memory and heap + external memory after a full collection, once the input is done. */
      rssAfterBytes: number;
      heapAfterBytes: number;
      /** Handles the input left open (they would keep the real CLI from exiting). */
      lingering: string[];
    }
  /** An exception no one caught, while reading input `id` (or after it, before the next one). */
  | { type: 'uncaught'; id: number | null; error: string };
