import type { parse as parseYaml } from 'yaml';
import { parseSimpleYaml } from './taxonomy-yaml';

/**
 * `metrics/default.yaml`, hpcprof's metric taxonomy for hpcviewer (format in
 * `metrics/METRICS.yaml.ex`): named, described metrics arranged in a tree, whose formulas refer to
 * `inputs` = (meta.db metric, propagation scope). Two layouts occur: older hpcprof writes root
 * metrics with `inclusive: {standard: *input}`; newer hpcprof nests them under groups such as `CPU`
 * and writes `inclusive: *input` directly (oracle README caveat 10). Both are read here.
 */

export interface TaxonomyEntry {
  /** The meta.db metric the entry presents. */
  metric: string;
  /** Display name and description from the taxonomy. */
  name: string;
  description: string;
  /** Names of the enclosing taxonomy groups, outermost first (e.g. `["CPU"]`). */
  groups: string[];
  /** Propagation scopes hpcviewer shows as inclusive and exclusive (e.g. `execution`, `function`). */
  inclusiveScope: string | null;
  exclusiveScope: string | null;
}

interface Input {
  metric: string;
  scope: string;
}

/** Taxonomy entries in document order, one per meta.db metric (the first that presents it). */
export function parseMetricTaxonomy(text: string): TaxonomyEntry[] {
  // Taxonomies reuse each input in many formulas; the limit only stops alias-expansion bombs.
  // prettyErrors (line and context for every error) makes a damaged file quadratic: 880 KB with
  // 16,000 errors took 65 s instead of 3 s. logLevel 'error' keeps yaml's warnings off stderr.
  // hpcprof's own output stays in a small subset read directly (taxonomy-yaml.ts); the rest goes to `yaml`.
  const doc =
    parseSimpleYaml(text) ??
    // `yaml` is loaded here, on first need: evaluating it costs every process that loads the bundle time and young heap.
    ((require('yaml') as { parse: typeof parseYaml }).parse(text, {
      merge: true,
      maxAliasCount: 1_000_000,
      prettyErrors: false,
      logLevel: 'error',
      uniqueKeys: false,
    }) as unknown);
  const roots = isRecord(doc) && Array.isArray(doc['roots']) ? doc['roots'] : null;
  if (!roots) throw new Error('no "roots" list');
  const out: TaxonomyEntry[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, groups: string[]) => {
    if (!isRecord(node)) return;
    const name = typeof node['name'] === 'string' ? node['name'] : '';
    const formula = variantFormula(node['variants']);
    const inclusive = formula ? inputOf(formula['inclusive']) : null;
    const exclusive = formula ? inputOf(formula['exclusive']) : null;
    const metric = inclusive?.metric ?? exclusive?.metric;
    if (metric && !seen.has(metric)) {
      seen.add(metric);
      out.push({
        metric,
        name: name || metric,
        description: typeof node['description'] === 'string' ? node['description'].trim() : '',
        groups,
        inclusiveScope: inclusive?.scope ?? null,
        exclusiveScope: exclusive?.scope ?? null,
      });
    }
    if (Array.isArray(node['children'])) for (const c of node['children']) walk(c, name ? [...groups, name] : groups);
  };
  for (const r of roots) walk(r, []);
  return out;
}

/** The formula map of the `Sum` variant (else the first variant), when it is a map. */
function variantFormula(variants: unknown): Record<string, unknown> | null {
  if (!isRecord(variants)) return null;
  const variant = variants['Sum'] ?? Object.values(variants)[0];
  return isRecord(variant) && isRecord(variant['formula']) ? variant['formula'] : null;
}

/** An input reference, written directly or as `{standard: …}`; computed formulas give null. */
function inputOf(v: unknown): Input | null {
  if (isRecord(v) && !('metric' in v) && 'standard' in v) v = v['standard'];
  if (isRecord(v) && typeof v['metric'] === 'string')
    return { metric: v['metric'], scope: typeof v['scope'] === 'string' ? v['scope'] : '' };
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
