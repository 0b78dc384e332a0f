import type { StringTable } from '../model/string-table';
import { TraceEventKind, type TraceData } from '../model/trace';
import { compileUserRegex } from '../source/user-regex';

/**
 * DMV's four classes of trace events (thesis §7.3, "Categorize"): data movement between host and
 * GPUs, GPU compute, the CUDA runtime, and CPU compute. The thesis' DMVis assigns them with regular
 * expressions on event names; we classify by the trace's own category (`cat`), which Kineto and
 * Nsight already set, and let user rules override it (setting `hpcLens.dmv.categoryRules`).
 */
export const DmvCategory = {
  DataMovement: 0,
  GpuCompute: 1,
  Runtime: 2,
  CpuCompute: 3,
  /** Categorised by nothing: counted in no class (e.g. NVTX ranges, `gpu_user_annotation`). */
  Other: 4,
  /** Left out on purpose (Kineto's `Trace` span, user `ignore` rules). */
  Ignored: 5,
} as const;
export type DmvCategory = (typeof DmvCategory)[keyof typeof DmvCategory];

/** The four classes, in the clock's stacking order (thesis Fig. 7.6: data movement innermost). */
export const DMV_CLASSES = [
  DmvCategory.DataMovement,
  DmvCategory.GpuCompute,
  DmvCategory.Runtime,
  DmvCategory.CpuCompute,
] as const;
export type DmvClass = (typeof DMV_CLASSES)[number];
export const CLASS_COUNT = 4;

/** Keys of the classes as the JSON reports and settings spell them, by DmvCategory. */
export const CATEGORY_KEYS = ['dataMovement', 'gpuCompute', 'runtime', 'cpuCompute', 'other', 'ignored'] as const;
export type DmvCategoryKey = (typeof CATEGORY_KEYS)[number];
export const CATEGORY_LABELS = ['data movement', 'GPU compute', 'CUDA runtime', 'CPU compute', 'other', 'ignored'];
/** DMVis' colours (thesis §7.4): data movement red, GPU compute green, runtime yellow, CPU compute purple. */
export const CATEGORY_COLOURS = ['#d62728', '#2ca02c', '#e6b800', '#9467bd', '#9e9e9e', '#9e9e9e'];

/** Per-class busy times (or any per-class quantity), by the keys of the JSON report. */
export type ClassValues = Record<'dataMovement' | 'gpuCompute' | 'runtime' | 'cpuCompute', number>;

/** `{dataMovement, gpuCompute, runtime, cpuCompute}` from four values in class order. */
export function classValues(v: ArrayLike<number>, scale = 1): ClassValues {
  return { dataMovement: v[0]! * scale, gpuCompute: v[1]! * scale, runtime: v[2]! * scale, cpuCompute: v[3]! * scale };
}

/**
 * Built-in classes by `cat`, compared case-insensitively. Kineto writes `gpu_memcpy`, `kernel`,
 * `cuda_runtime`, `cpu_op`… (older traces `Memcpy`, `Kernel`, `Runtime`, `Operator`); the Nsight
 * reader writes `Memcpy`, `Memset`, `Kernel`, `CUDA API`. Unified-memory activity (`uvm`,
 * `Unified Memory`) is data movement.
 */
const DEFAULT_BY_CAT: Record<string, DmvCategory> = {
  gpu_memcpy: DmvCategory.DataMovement,
  gpu_memset: DmvCategory.DataMovement,
  memcpy: DmvCategory.DataMovement,
  memset: DmvCategory.DataMovement,
  uvm: DmvCategory.DataMovement,
  'unified memory': DmvCategory.DataMovement,
  kernel: DmvCategory.GpuCompute,
  cuda_runtime: DmvCategory.Runtime,
  cuda_driver: DmvCategory.Runtime,
  runtime: DmvCategory.Runtime,
  'cuda api': DmvCategory.Runtime,
  cpu_op: DmvCategory.CpuCompute,
  operator: DmvCategory.CpuCompute,
  python_function: DmvCategory.CpuCompute,
  user_annotation: DmvCategory.CpuCompute,
  trace: DmvCategory.Ignored,
};

/** The built-in class of a `cat` value. */
export function defaultCategory(cat: string): DmvCategory {
  return DEFAULT_BY_CAT[cat.toLowerCase()] ?? DmvCategory.Other;
}

/**
 * One user rule (setting `hpcLens.dmv.categoryRules`, an array tried in order before the built-in
 * classes; the first rule that matches wins). A rule matches an event when every pattern it has
 * matches: `cat` against the event's category, `name` against its name. A pattern is an exact,
 * case-sensitive string, or a regular expression written `/source/flags` (e.g. `/^nccl/i`).
 * `category` is a class key or `ignore`.
 *
 * ```json
 * [{ "name": "/^ncclKernel/", "category": "dataMovement" },
 *  { "cat": "NVTX", "name": "/^step /", "category": "cpuCompute" },
 *  { "cat": "gpu_user_annotation", "category": "ignore" }]
 * ```
 */
export interface CategoryRule {
  cat?: string;
  name?: string;
  category: 'dataMovement' | 'gpuCompute' | 'runtime' | 'cpuCompute' | 'ignore';
}

/** Rules ready to run, and what was wrong with the ones that could not be used. */
export interface CompiledRules {
  rules: { cat: Matcher | null; name: Matcher | null; category: DmvCategory }[];
  /** One message per unusable rule: `rule 2: "name" /([/ is not a valid regular expression (…)`. */
  errors: string[];
}

type Matcher = (text: string) => boolean;

const SLICE = TraceEventKind.Slice;

const RULE_CATEGORIES: Record<string, DmvCategory> = {
  dataMovement: DmvCategory.DataMovement,
  gpuCompute: DmvCategory.GpuCompute,
  runtime: DmvCategory.Runtime,
  cpuCompute: DmvCategory.CpuCompute,
  ignore: DmvCategory.Ignored,
};

/** Validates and compiles rules as read from settings (any JSON); bad rules are skipped and reported. */
export function compileCategoryRules(raw: unknown): CompiledRules {
  const out: CompiledRules = { rules: [], errors: [] };
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw)) {
    out.errors.push('category rules must be an array of {cat?, name?, category}');
    return out;
  }
  raw.forEach((r: unknown, i) => {
    const at = `rule ${i + 1}`;
    if (!r || typeof r !== 'object') return void out.errors.push(`${at}: not an object`);
    const rule = r as Record<string, unknown>;
    const category = RULE_CATEGORIES[String(rule['category'])];
    if (category === undefined)
      return void out.errors.push(
        `${at}: "category" must be one of ${Object.keys(RULE_CATEGORIES).join(', ')} (got ${JSON.stringify(rule['category'])})`,
      );
    const matchers: (Matcher | null)[] = [];
    for (const key of ['cat', 'name'] as const) {
      const p = rule[key];
      if (p === undefined) {
        matchers.push(null);
        continue;
      }
      if (typeof p !== 'string') return void out.errors.push(`${at}: "${key}" must be a string`);
      try {
        matchers.push(patternMatcher(p));
      } catch (e) {
        return void out.errors.push(`${at}: "${key}" ${p} is not a valid regular expression (${(e as Error).message})`);
      }
    }
    if (!matchers[0] && !matchers[1]) return void out.errors.push(`${at}: needs "cat" or "name"`);
    out.rules.push({ cat: matchers[0]!, name: matchers[1]!, category });
  });
  return out;
}

/**
 * `/source/flags` → a regular-expression test; anything else → exact equality. Patterns come from
 * settings, so they run on RE2 (linear time, source/user-regex.ts): a bad pattern cannot stall the worker.
 */
function patternMatcher(p: string): Matcher {
  const m = /^\/(.*)\/([dgimsuvy]*)$/s.exec(p);
  if (!m) return text => text === p;
  const re = compileUserRegex(m[1]!, m[2]!.replace(/[gy]/g, ''));
  return text => re.test(text);
}

/**
 * The class of every event row of a trace: the first matching user rule, else the built-in class of
 * its `cat`. Only slices are classed (instants and samples get `Other`). Memoized per distinct
 * category (and, when a rule looks at names, per distinct (category, name) pair), so a million events
 * cost a million typed-array reads.
 */
export function eventCategories(trace: TraceData, strings: StringTable, rules: CompiledRules): Uint8Array {
  const ev = trace.events;
  const n = ev.kind.length;
  const out = new Uint8Array(n).fill(DmvCategory.Other);
  const byName = rules.rules.some(r => r.name !== null);
  const classify = (cat: number, name: number): DmvCategory => {
    const c = strings.get(cat);
    for (const r of rules.rules) {
      if (r.cat && !r.cat(c)) continue;
      if (r.name && !r.name(strings.get(name))) continue;
      return r.category;
    }
    return defaultCategory(c);
  };
  // Per category: its class, or (rules on names) its class per name id, 255 = not yet known.
  const byCat = new Map<number, number | Uint8Array>();
  let lastCat = -1,
    last: number | Uint8Array = 0;
  for (let k = 0; k < n; k++) {
    if (ev.kind[k] !== SLICE) continue;
    const cat = ev.category[k]!;
    if (cat !== lastCat) {
      let m = byCat.get(cat);
      if (m === undefined) byCat.set(cat, (m = byName ? new Uint8Array(strings.size).fill(255) : classify(cat, 0)));
      lastCat = cat;
      last = m;
    }
    if (typeof last === 'number') out[k] = last;
    else {
      const name = ev.name[k]!;
      let c = last[name]!;
      if (c === 255) last[name] = c = classify(cat, name);
      out[k] = c;
    }
  }
  return out;
}
