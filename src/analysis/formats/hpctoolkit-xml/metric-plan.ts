import { isTimeUnit, normaliseUnit, type MetricAggregation, type MetricDescriptor } from '../../model/metric';

/** One entry of experiment.xml's MetricTable (`Metric`) or MetricDBTable (`MetricDB`). */
export interface MetricEntry {
  /** The `i` attribute: what `<M n=…>` and `partner` refer to. */
  id: string;
  /** The `n` attribute, e.g. `CPUTIME (usec) (I)` or `CPUTIME (usec):Sum (E)`. */
  name: string;
  type: 'inclusive' | 'exclusive' | 'nil';
  partner: string | null;
  /** Column in the `*.metric-db` files (`db-id`, else the position in the table). */
  column: number;
}

/** A model metric and the HPCToolkit entries its values come from (an `(I)`/`(E)` pair, or one of them). */
export interface MetricPlan {
  descriptor: MetricDescriptor;
  inclusive: MetricEntry | null;
  exclusive: MetricEntry | null;
}

/** HPCToolkit's summary statistics (hpcprof-mpi's `X:Sum`, `X:Mean`, …) and how they combine. */
const STATISTICS: Record<string, MetricAggregation> = { Sum: 'sum', Mean: 'avg', Min: 'min', Max: 'max' };

/** `CPUTIME (usec) (I)` → `CPUTIME (usec)`: the name shared by both halves of a pair. */
function baseName(entry: MetricEntry): string {
  return entry.name.replace(/\s*\((I|E)\)\s*$/, '').trim();
}

function typeOf(entry: MetricEntry): MetricEntry['type'] {
  if (entry.type !== 'nil') return entry.type;
  if (/\(I\)\s*$/.test(entry.name)) return 'inclusive';
  if (/\(E\)\s*$/.test(entry.name)) return 'exclusive';
  return 'nil';
}

/**
 * Names a metric as Hatchet does where it can (CPUTIME is `time`, per Hatchet's rename), else by
 * HPCToolkit's name. The unit is the parenthesised suffix (`usec`, `sec`); a statistic other than
 * Sum becomes a suffix of the name (`time:Mean`).
 */
function describe(base: string): Pick<MetricDescriptor, 'name' | 'label' | 'unit' | 'aggregation'> {
  const stat = /^(.*\S):([A-Za-z]+)$/.exec(base);
  const measure = stat ? stat[1]! : base;
  const statistic = stat ? stat[2]! : null;
  const unitMatch = /\(([^()]+)\)\s*$/.exec(measure);
  const unit = unitMatch ? normaliseUnit(unitMatch[1]) : '';
  const root = /^CPUTIME \((usec|sec)\)$/.test(measure) ? 'time' : measure;
  const name = statistic && statistic !== 'Sum' ? `${root}:${statistic}` : root;
  const aggregation = statistic ? (STATISTICS[statistic] ?? 'avg') : 'sum';
  return { name, label: base, unit, aggregation };
}

/**
 * Pairs inclusive and exclusive entries (by `partner`, else by name) into model metrics, in table
 * order. Names are made unique (a second `time` keeps HPCToolkit's own name).
 */
export function planMetrics(entries: readonly MetricEntry[]): MetricPlan[] {
  const byId = new Map(entries.map(e => [e.id, e]));
  const used = new Set<MetricEntry>();
  const names = new Set<string>();
  const plans: MetricPlan[] = [];
  // Entries by base name and type, for pairing by name; and the next free `#k` per base name.
  // Both keep a table of thousands of metrics linear (a scan per entry was quadratic).
  const byNameAndType = new Map<string, { list: MetricEntry[]; next: number }>();
  for (const e of entries) {
    const key = `${typeOf(e)}\0${baseName(e)}`;
    let group = byNameAndType.get(key);
    if (!group) byNameAndType.set(key, (group = { list: [], next: 0 }));
    group.list.push(e);
  }
  const unusedByName = (type: MetricEntry['type'], base: string): MetricEntry | undefined => {
    const group = byNameAndType.get(`${type}\0${base}`);
    if (!group) return undefined;
    while (group.next < group.list.length && used.has(group.list[group.next]!)) group.next++;
    return group.list[group.next];
  };
  const nextSuffix = new Map<string, number>();
  for (const entry of entries) {
    if (used.has(entry)) continue;
    used.add(entry);
    const type = typeOf(entry);
    const base = baseName(entry);
    let partner: MetricEntry | null = null;
    if (type !== 'nil') {
      const opposite = type === 'inclusive' ? 'exclusive' : 'inclusive';
      const byRef = entry.partner !== null ? byId.get(entry.partner) : undefined;
      const candidate = byRef && !used.has(byRef) && typeOf(byRef) === opposite ? byRef : unusedByName(opposite, base);
      if (candidate) {
        partner = candidate;
        used.add(candidate);
      }
    }
    const inclusive = type === 'inclusive' ? entry : partner;
    const exclusive = type === 'inclusive' ? partner : entry;
    const d = describe(base);
    let name = d.name;
    if (names.has(name)) name = base;
    if (names.has(name)) {
      let k = nextSuffix.get(base) ?? 2;
      while (names.has(`${base} #${k}`)) k++;
      name = `${base} #${k}`;
      nextSuffix.set(base, k + 1);
    }
    names.add(name);
    plans.push({
      descriptor: {
        ...d,
        name,
        sourceKeys: [inclusive, exclusive].filter((e): e is MetricEntry => e !== null).map(e => e.name),
        kind: inclusive ? 'inclusive' : 'exclusive',
        aggregation: d.aggregation,
      },
      inclusive,
      exclusive,
    });
  }
  return plans;
}

/** Hatchet's choice: `time` when present, else the first metric in a time unit, else the first. */
export function primaryMetricOf(plans: readonly MetricPlan[]): number {
  const time = plans.findIndex(p => p.descriptor.name === 'time');
  if (time >= 0) return time;
  const timed = plans.findIndex(p => isTimeUnit(p.descriptor.unit));
  return Math.max(0, timed);
}
