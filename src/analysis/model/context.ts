/**
 * One execution context: the unit a metric value belongs to (an MPI rank, a thread of a rank, a GPU
 * stream). -1 means "not applicable" (e.g. thread of a rank-only profile).
 */
export interface ExecutionContext {
  rank: number;
  thread: number;
  /** GPU device and stream for GPU contexts, else -1. */
  gpuDevice: number;
  gpuStream: number;
  /** In a profile made from an ensemble (ensemble/ensemble-profile.ts): the index of the run this context stands for. */
  run?: number;
  /** For memory samples (analysis/memory/editor-profile.ts): the OS CPU id (processing unit) that issued the loads; -1 for an unknown CPU. */
  pu?: number;
  /** Short label for views, e.g. `rank 3`, `rank 0 · thread 2`, `GPU 0 · stream 7`. */
  label: string;
}

export function makeContext(parts: Partial<Omit<ExecutionContext, 'label'>> & { label?: string }): ExecutionContext {
  const ctx = {
    rank: parts.rank ?? -1,
    thread: parts.thread ?? -1,
    gpuDevice: parts.gpuDevice ?? -1,
    gpuStream: parts.gpuStream ?? -1,
  };
  return {
    ...ctx,
    ...(parts.pu !== undefined ? { pu: parts.pu } : {}),
    label: parts.label ?? contextLabel(ctx),
  };
}

function contextLabel(c: Omit<ExecutionContext, 'label'>): string {
  const parts: string[] = [];
  if (c.rank >= 0) parts.push(`rank ${c.rank}`);
  if (c.thread >= 0) parts.push(`thread ${c.thread}`);
  if (c.gpuDevice >= 0) parts.push(`GPU ${c.gpuDevice}`);
  if (c.gpuStream >= 0) parts.push(`stream ${c.gpuStream}`);
  return parts.length ? parts.join(' · ') : 'process';
}

/** What to call a profile's contexts in prose: `runs` (an ensemble), `PUs` (memory samples), `ranks`, `threads`, or `contexts` when mixed. */
export function contextNoun(contexts: readonly Pick<ExecutionContext, 'rank' | 'thread' | 'run' | 'pu'>[]): string {
  if (contexts.length > 0 && contexts.every(c => c.run !== undefined && c.run >= 0)) return 'runs';
  if (contexts.length > 0 && contexts.every(c => c.pu !== undefined)) return 'PUs';
  if (contexts.every(c => c.rank >= 0 && c.thread < 0)) return 'ranks';
  if (contexts.every(c => c.rank < 0 && c.thread >= 0)) return 'threads';
  return 'contexts';
}
