import {
  hasLineBreak,
  isTimeUnit,
  normaliseUnit,
  type MetricAggregation,
  type MetricDescriptor,
  type MetricKind,
} from '../../model/metric';
import { baseAttribute, isBookkeepingAttribute } from './attributes';

/** A value column of a Caliper profile, whatever the form it was read from. */
export interface ValueColumn {
  /** Index the rows use for this column. */
  index: number;
  /** Caliper attribute name, e.g. `avg#inclusive#sum#time.duration`. */
  name: string;
  /** `attribute.alias`, e.g. `Avg time/rank`. */
  alias?: string;
  /** `attribute.unit` (or `time.unit`) as written, e.g. `sec`. */
  unit?: string;
}

/** A model metric and the column(s) that hold its exclusive and inclusive values (-1: none). */
export interface MetricPlan {
  descriptor: MetricDescriptor;
  exclusiveColumn: number;
  inclusiveColumn: number;
}

/** Names Hatchet gives Caliper's time columns, so results line up with Hatchet and Thicket. */
const EXCLUSIVE_TIME = new Set(['sum#time.duration', 'sum#avg#sum#time.duration']);
const INCLUSIVE_TIME = new Set(['inclusive#sum#time.duration', 'sum#avg#inclusive#sum#time.duration']);

/**
 * Splits Caliper's `<op>#<op>#attr` naming into what the model needs: a column is inclusive when
 * an `inclusive` op was applied (at any level) or the attribute itself is an inclusive one (the
 * timer's `time.inclusive.duration.ns`), as Hatchet decides; its cross-context aggregation is the
 * outermost `min`/`max`/`avg` op (spot and runtime-report profiles are cross-rank statistics).
 */
function classify(key: string): {
  name: string;
  kind: Exclude<MetricKind, 'both'>;
  aggregation: MetricAggregation;
  pairKey: string;
} {
  if (EXCLUSIVE_TIME.has(key)) return { name: 'time', kind: 'exclusive', aggregation: 'sum', pairKey: 'time' };
  if (INCLUSIVE_TIME.has(key)) return { name: 'time', kind: 'inclusive', aggregation: 'sum', pairKey: 'time' };
  const ops = key.split('#');
  const first = ops.length > 1 ? ops[0]! : '';
  const aggregation: MetricAggregation = first === 'avg' || first === 'min' || first === 'max' ? first : 'sum';
  const inclusive = ops.slice(0, -1).includes('inclusive') || ops[ops.length - 1]!.split('.').includes('inclusive');
  // `inclusive#X` pairs with `X` when both are present.
  const pairKey = key.startsWith('inclusive#') ? key.slice('inclusive#'.length) : key;
  return { name: key, kind: inclusive ? 'inclusive' : 'exclusive', aggregation, pairKey };
}

/**
 * The model unit of a column: its `attribute.unit`. Without one, `time.duration` is in seconds
 * from Caliper 2.0 on and in microseconds before (files without a version are taken as old: the
 * pre-2.0 JSON profiles in circulation are in µs); CUDA (CUPTI) and ROCm activity durations are
 * nanoseconds, and seconds once `scale`d (Caliper's cuda-activity configs scale them by 1e-9).
 */
export function unitOf(column: ValueColumn, caliperMajor: number | null): string {
  if (column.unit) return normaliseUnit(column.unit);
  const attr = baseAttribute(column.name);
  if (attr === 'time.duration' || column.name === 'time')
    return caliperMajor !== null && caliperMajor >= 2 ? 's' : 'µs';
  if (attr === 'time.duration.ns' || attr === 'time.inclusive.duration.ns') return 'ns';
  // `^(cupti|rocm)\..*duration$` by hand (a regular expression is compiled on first use in every process).
  if ((attr.startsWith('cupti.') || attr.startsWith('rocm.')) && attr.endsWith('duration') && !hasLineBreak(attr))
    return column.name.split('#').includes('scale') ? 's' : 'ns';
  if (attr === 'count') return 'count';
  return '';
}

/** Readable names of Caliper's measurement attributes. */
const ATTRIBUTE_LABELS: Record<string, string> = {
  'time.duration': 'Time',
  'time.duration.ns': 'Time',
  'time.inclusive.duration.ns': 'Time',
  'cupti.host.duration': 'CUDA host time',
  'cupti.activity.duration': 'CUDA activity time',
  'cupti.activity.bytes': 'CUDA bytes copied',
  'rocm.host.duration': 'ROCm host time',
  'rocm.activity.duration': 'ROCm activity time',
  count: 'Count',
};

/**
 * A readable label for a Caliper column name (the raw name stays the metric's name):
 * `inclusive#scale#sum#cupti.host.duration` → `CUDA host time (inclusive)`,
 * `avg#inclusive#sum#time.duration` → `Time (inclusive, avg over ranks)`; `sum`, `scale` and
 * other aggregation steps are how the value was made, not what it is. `inclusive` is left out
 * for a metric holding both sides.
 */
export function caliperMetricLabel(key: string, both = false): string {
  const ops = key.split('#');
  const attr = ops.pop()!;
  const base = ATTRIBUTE_LABELS[attr] ?? (readableAttribute(attr) || key);
  const notes: string[] = [];
  if (!both && (ops.includes('inclusive') || attr.split('.').includes('inclusive'))) notes.push('inclusive');
  const across = ops[0];
  if (ops.length > 0 && (across === 'avg' || across === 'min' || across === 'max')) notes.push(`${across} over ranks`);
  return notes.length ? `${base} (${notes.join(', ')})` : base;
}

/** One model metric per column, except that `X` and `inclusive#X` become one metric with both sides. */
export function planMetrics(columns: readonly ValueColumn[], caliperMajor: number | null): MetricPlan[] {
  const byPair = new Map<string, MetricPlan>();
  const plans: MetricPlan[] = [];
  // Labels from `attribute.alias` are the user's words: kept as they are.
  const aliased = new Set<MetricPlan>();
  const labelOf = (key: string, both: boolean) => (key === 'time' ? 'time' : caliperMetricLabel(key, both));
  for (const c of columns) {
    if (isBookkeepingAttribute(c.name)) continue;
    const cls = classify(c.name);
    let plan = byPair.get(cls.pairKey);
    if (
      plan &&
      ((cls.kind === 'exclusive' && plan.exclusiveColumn < 0) || (cls.kind === 'inclusive' && plan.inclusiveColumn < 0))
    ) {
      // The other half of a pair: e.g. `inclusive#sum#time.duration` after `sum#time.duration`.
      if (cls.kind === 'exclusive') {
        plan.exclusiveColumn = c.index;
        plan.descriptor.name = cls.name;
      } else plan.inclusiveColumn = c.index;
      plan.descriptor.kind = 'both';
      if (c.alias && !aliased.has(plan)) {
        plan.descriptor.label = c.alias;
        aliased.add(plan);
      } else if (!aliased.has(plan)) plan.descriptor.label = labelOf(cls.pairKey, true);
      plan.descriptor.sourceKeys.push(c.name);
      if (!plan.descriptor.unit) plan.descriptor.unit = unitOf(c, caliperMajor);
      continue;
    }
    plan = {
      descriptor: {
        name: cls.name,
        label: c.alias ?? labelOf(c.name, false),
        sourceKeys: [c.name],
        unit: unitOf(c, caliperMajor),
        kind: cls.kind,
        aggregation: cls.aggregation,
      },
      exclusiveColumn: cls.kind === 'exclusive' ? c.index : -1,
      inclusiveColumn: cls.kind === 'inclusive' ? c.index : -1,
    };
    if (c.alias) aliased.add(plan);
    byPair.set(cls.pairKey, plan);
    plans.push(plan);
  }
  return plans;
}

/** Hatchet's choice: `time` when present, else the average inclusive time per rank, else a time metric, else the first. */
export function primaryMetricOf(metrics: readonly MetricDescriptor[]): number {
  for (const name of ['time', 'avg#inclusive#sum#time.duration', 'sum#inclusive#sum#time.duration']) {
    const i = metrics.findIndex(m => m.name === name);
    if (i >= 0) return i;
  }
  const t = metrics.findIndex(m => isTimeUnit(m.unit));
  return t >= 0 ? t : 0;
}

/**
 * `loop.iterations` → `Loop iterations`: runs of `.` and `_` become a space, a first letter a capital.
 * By hand rather than `replace(/[._]+/g, ' ').replace(/^\w/, …)`: regular expressions are compiled on
 * first use in every process, and every Caliper read labels its columns.
 */
function readableAttribute(attr: string): string {
  let out = '';
  for (let i = 0; i < attr.length; i++) {
    const c = attr[i]!;
    if (c !== '.' && c !== '_') out += c;
    else if (i === 0 || (attr[i - 1] !== '.' && attr[i - 1] !== '_')) out += ' ';
  }
  return out !== '' && out[0]! >= 'a' && out[0]! <= 'z' ? out[0]!.toUpperCase() + out.slice(1) : out;
}
