/** Which values a file recorded for a metric; the other kind is derived from the call tree. */
export type MetricKind = 'exclusive' | 'inclusive' | 'both';

/**
 * How a metric's values combine across execution contexts. `sum` metrics add up over ranks
 * (time, samples, bytes); the others are already cross-rank statistics written by the tool, so the
 * total over contexts is only meaningful as that statistic (e.g. Caliper's `avg#inclusive#…`).
 */
export type MetricAggregation = 'sum' | 'min' | 'max' | 'avg';

export interface MetricDescriptor {
  /** Stable name used in queries and in `hpc-lens inspect`, e.g. `time`. */
  name: string;
  /** Human label, e.g. `Avg time/rank`; defaults to the name. */
  label: string;
  /** The name(s) of the column(s) in the source file, e.g. `sum#time.duration`. */
  sourceKeys: string[];
  /** Unit of the values: `s`, `ms`, `µs`, `ns`, `samples`, `bytes`, `count`, or `` when unknown. */
  unit: string;
  kind: MetricKind;
  aggregation: MetricAggregation;
}

/** True for metrics that measure time (used to choose the primary metric). */
export function isTimeUnit(unit: string): boolean {
  return unit === 's' || unit === 'ms' || unit === 'µs' || unit === 'ns';
}

/** Normalises unit spellings found in profiles (`sec`, `usec`, `nsec`, …) to the model's units. */
export function normaliseUnit(unit: string | undefined | null): string {
  if (!unit) return '';
  const u = unit.trim().toLowerCase();
  switch (u) {
    case 's':
    case 'sec':
    case 'secs':
    case 'second':
    case 'seconds':
      return 's';
    case 'ms':
    case 'msec':
    case 'millisecond':
    case 'milliseconds':
      return 'ms';
    case 'us':
    case 'µs':
    case 'usec':
    case 'microsecond':
    case 'microseconds':
      return 'µs';
    case 'ns':
    case 'nsec':
    case 'nanosecond':
    case 'nanoseconds':
      return 'ns';
    case 'b':
    case 'byte':
    case 'bytes':
      return 'bytes';
    default:
      return unit.trim();
  }
}

/**
 * A label without a trailing unit the views add anyway: `REALTIME (sec)` with unit `s` → `REALTIME`,
 * so no view writes `REALTIME (sec) (s)`. Other parentheses stay (`CPUTIME (usec):Mean`).
 */
export function withoutUnitSuffix(label: string, unit: string): string {
  // `^(.*\S)\s*\(([^()]+)\)$` by hand: a regular expression is compiled on its first use in every
  // process (and again when V8 tiers it up), and every read of a fresh process labels its metrics.
  if (unit === '' || !label.endsWith(')')) return label;
  const open = label.lastIndexOf('(');
  if (open < 0) return label;
  const inner = label.slice(open + 1, -1);
  if (inner === '' || inner.includes(')')) return label;
  // `\s` is what trimEnd removes.
  const name = label.slice(0, open).trimEnd();
  return name !== '' && !hasLineBreak(name) && normaliseUnit(inner) === unit ? name : label;
}

/** The text holds a character a regular expression's `.` does not match (for hand-written matchers). */
export function hasLineBreak(text: string): boolean {
  return text.includes('\n') || text.includes('\r') || text.includes('\u2028') || text.includes('\u2029');
}
