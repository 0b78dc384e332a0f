/** The header line of one `perf script` sample (fields depend on `-F`; absent ones are -1 / ''). */
export interface SampleHeader {
  comm: string;
  pid: number;
  tid: number;
  cpu: number;
  /** Whole seconds and the fraction's digits (`198789.478194` → '198789', '478194'), or '' without a time field. */
  seconds: string;
  fraction: string;
  /** The sample period (event count, ns for cpu-clock/task-clock), or -1. */
  period: number;
  /** Event name without modifiers (`cycles:u` → `cycles`), or ''. */
  event: string;
  /** What follows the event: the ip/sym/dso of a sample recorded without call chains, or tracepoint fields. */
  rest: string;
}

/**
 * `comm  pid[/tid] [cpu] secs.frac: [period] event[:mods]: [rest]`. comm may hold spaces, so it is
 * the shortest prefix followed by a number; the pid alone is really the thread id (perf's `tid`).
 */
const HEADER =
  /^(\S.*?)\s+(-?\d+)(?:\/(-?\d+))?\s+(?:\[(\d+)\]\s+)?(?:(\d+)\.(\d+):\s*)?(?:(\d+)\s+)?(?:(\S+?):(?:\s+|$))?(.*)$/;
/** Event modifiers perf appends (`:u`, `:k`, `:ppp`, `:P`…), as opposed to tracepoint names (`sched:sched_switch`). */
const MODIFIERS = /:[ukhIGHpPSDWe]+$/;

export function parseSampleHeader(line: string): SampleHeader | null {
  const m = HEADER.exec(line);
  if (!m) return null;
  const tid = Number(m[3] ?? m[2]);
  return {
    comm: m[1]!,
    pid: m[3] === undefined ? tid : Number(m[2]),
    tid,
    cpu: m[4] === undefined ? -1 : Number(m[4]),
    seconds: m[5] ?? '',
    fraction: m[6] ?? '',
    period: m[7] === undefined ? -1 : Number(m[7]),
    event: (m[8] ?? '').replace(MODIFIERS, ''),
    rest: m[9]!.trim(),
  };
}

/** One frame of a call chain: `\t<hex addr> <symbol>[+0xoff] (<dso>)`, each part optional but the symbol. */
export interface FrameLine {
  symbol: string;
  dso: string;
}

const SYMBOL_OFFSET = /\+0x[0-9a-fA-F]+$/;
const HEX = /^[0-9a-fA-F]+$/;

/** Parses a frame (the line trimmed); symbols keep their spaces and parentheses (demangled C++). */
export function parseFrameLine(text: string): FrameLine {
  let s = text.trim();
  const sp = s.indexOf(' ');
  if (sp > 0 && HEX.test(s.slice(0, sp))) s = s.slice(sp + 1).trimStart();
  let dso = '';
  if (s.endsWith(')')) {
    // The dso is the last balanced (…) group: paths may hold parentheses (`(/tmp/x (deleted))`).
    let depth = 0;
    for (let i = s.length - 1; i >= 0; i--) {
      const c = s.charCodeAt(i);
      if (c === 41) depth++;
      else if (c === 40 && --depth === 0) {
        if (i === 0 || s.charCodeAt(i - 1) === 32) {
          dso = s.slice(i + 1, -1);
          s = s.slice(0, i).trimEnd();
        }
        break;
      }
    }
  }
  const symbol = s.replace(SYMBOL_OFFSET, '');
  return { symbol: symbol || '[unknown]', dso };
}

/** `-F +srcline` puts `  file.c:123` under a frame; null for `??:0` and other unknown locations. */
const SRCLINE = /^ +(\S.*?):(\d+|\?+)(?: \(discriminator \d+\))?$/;

export function parseSrcLine(line: string): { file: string; line: number } | null {
  const m = SRCLINE.exec(line);
  const n = m ? Number(m[2]) : 0;
  return m && m[1] !== '??' && n > 0 ? { file: m[1]!, line: n } : null;
}
