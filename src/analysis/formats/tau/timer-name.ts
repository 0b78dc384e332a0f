import { NodeKind } from '../../model/call-tree';

/**
 * TAU timer names. A timer is a function, a region or a call path of them; TAU folds everything it
 * knows into the name:
 *
 *   MPI_Send()                                            MPI wrappers (padded with spaces)
 *   main [{/src/matmult.c} {219,0}]                       PDT: source location
 *   void compute() C [{matmult.c} {60,1}-{75,1}]          PDT with signature, language and range
 *   Loop: void compute() C [{matmult.c} {105,5}-{112,5}]  PDT loop instrumentation
 *   [SAMPLE] kernel [{/src/k.c} {42}]                     event-based sampling: one line
 *   [UNWIND] /src/a.c.17 [@] solve [{/src/s.c} {88}]      an unwound caller frame (call site [@] callee)
 *   [CONTEXT] main                                        the samples taken while `main` ran
 *   .TAU application => main => compute                   TAU_CALLPATH: the path from the top-level timer
 */

const CALLPATH_SEPARATOR = /\s+=>\s+/;
const LOCATION =
  /\s*\[\{([^{}]*)\}\s*(?:\{\s*(\d+)(?:\s*,\s*\d+)?\s*\}(?:\s*-\s*\{\s*(\d+)(?:\s*,\s*\d+)?\s*\})?)?\s*\]\s*$/;
const TAG = /^\[([A-Z_]+)\]\s*/;
/** Tags of timers made by TAU's event-based sampling rather than by instrumentation. */
const SAMPLING_TAGS = new Set(['SAMPLE', 'UNWIND', 'CONTEXT', 'SUMMARY', 'INTERMEDIATE']);

export interface TimerDescription {
  /** What views show: the name without its source location and without the ` C` language marker. */
  name: string;
  kind: NodeKind;
  file: string | null;
  line: number | null;
  endLine: number | null;
  module: string | null;
  /** `SAMPLE`, `UNWIND`, `CONTEXT`, … for the timers of event-based sampling, else null. */
  samplingTag: string | null;
}

export function isCallpath(name: string): boolean {
  return name.includes('=>') && CALLPATH_SEPARATOR.test(name);
}

/** The timers of a call path, outermost first, without the padding TAU puts around them. */
export function callpathParts(name: string): string[] {
  return name.split(CALLPATH_SEPARATOR).map(p => p.trim());
}

/** The identity of a timer or call path with TAU's padding normalised (`A => B`). */
export function timerKey(name: string): string {
  return isCallpath(name) ? callpathParts(name).join(' => ') : name.trim();
}

/**
 * Splits one timer name (not a call path) into what the call tree shows and its source location. Each
 * regular expression runs only on names holding what it must match (`[`, `[{`, a final `C`): one is
 * compiled on first use, and again on tier-up, in every process, and most timers have no tag or ` C`.
 */
export function describeTimer(timer: string): TimerDescription {
  let rest = timer.trim();
  let tag: string | null = null;
  const t = rest.startsWith('[') ? TAG.exec(rest) : null;
  if (t) {
    tag = t[1]!;
    rest = rest.slice(t[0].length);
  }

  let file: string | null = null,
    line: number | null = null,
    endLine: number | null = null,
    module: string | null = null;
  const loc = rest.includes('[{') ? LOCATION.exec(rest) : null;
  if (loc) {
    file = loc[1]!.trim() || null;
    line = loc[2] ? Number(loc[2]) || null : null;
    endLine = loc[3] ? Number(loc[3]) || null : null;
    rest = rest.slice(0, loc.index);
  }
  // An unwound frame names its call site first: `<file>.<line> [@] <function>`.
  const at = rest.indexOf(' [@] ');
  if (at >= 0) {
    rest = rest.slice(at + 5).trim();
    const words = rest.split(/\s+/);
    if (!loc && words.length === 2) {
      rest = words[0]!;
      module = words[1]!;
    }
  }
  rest = rest.trim();
  if (rest.endsWith('C')) rest = rest.replace(/\s+C$/, '');
  if (!rest) rest = timer.trim() || '<unnamed>';

  let kind: NodeKind = NodeKind.Function;
  if (tag === 'SAMPLE') kind = NodeKind.Statement;
  else if (tag === 'CONTEXT') kind = NodeKind.Region;
  else if (rest.startsWith('Loop:')) kind = NodeKind.Loop;
  return {
    name: tag ? `[${tag}] ${rest}` : rest,
    kind,
    file,
    line,
    endLine,
    module,
    samplingTag: tag && SAMPLING_TAGS.has(tag) ? tag : null,
  };
}
