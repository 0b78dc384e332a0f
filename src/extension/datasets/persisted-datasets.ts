/**
 * What HPC Lens remembers across a window reload: the loaded datasets (by URI), which one is active
 * and each one's metric by NAME (indices change when a reader changes). Pure, so the validation of
 * whatever the workspace storage holds is unit-tested; the extension keeps it in `workspaceState`.
 */

/** One remembered dataset: a profile or trace, a comparison of two, or an ensemble (a folder, or several Explorer selections). */
export type PersistedDataset =
  | { source: 'file'; uri: string; metric?: string }
  | { source: 'diff'; baseline: string; comparison: string; metric?: string }
  | { source: 'ensemble'; uris: string[]; metric?: string };

export interface PersistedDatasets {
  version: 1;
  datasets: PersistedDataset[];
  /** Index into `datasets`, -1 when none is active. */
  active: number;
}

export const PERSISTED_DATASETS_KEY = 'hpcLens.datasets';

/** The identity of a dataset: opening something with the same key activates the loaded one. */
export function datasetKey(d: PersistedDataset): string {
  if (d.source === 'ensemble') return `ensemble:${d.uris.join('\n')}`;
  return d.source === 'file' ? `file:${d.uri}` : `diff:${d.baseline}\n${d.comparison}`;
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Reads what the storage holds. Anything malformed is dropped with a reason instead of failing the
 * whole restore (storage written by another version, or edited by hand); duplicates keep the first.
 */
export function parsePersistedDatasets(raw: unknown): { state: PersistedDatasets; problems: string[] } {
  const empty: PersistedDatasets = { version: 1, datasets: [], active: -1 };
  if (raw === undefined || raw === null) return { state: empty, problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { state: empty, problems: ['the remembered datasets are not an object'] };
  const r = raw as Record<string, unknown>;
  if (r.version !== 1)
    return { state: empty, problems: [`unknown version ${JSON.stringify(r.version)} of the remembered datasets`] };
  if (!Array.isArray(r.datasets)) return { state: empty, problems: ['the remembered datasets have no list'] };
  const problems: string[] = [];
  const datasets: PersistedDataset[] = [];
  const seen = new Set<string>();
  let active = -1;
  r.datasets.forEach((d: unknown, i: number) => {
    const entry = readEntry(d);
    if (typeof entry === 'string') {
      problems.push(`dataset ${i + 1}: ${entry}`);
      return;
    }
    const key = datasetKey(entry);
    if (seen.has(key)) {
      problems.push(`dataset ${i + 1}: a duplicate`);
      return;
    }
    seen.add(key);
    if (r.active === i) active = datasets.length;
    datasets.push(entry);
  });
  return { state: { version: 1, datasets, active }, problems };
}

function readEntry(d: unknown): PersistedDataset | string {
  if (typeof d !== 'object' || d === null) return 'not an object';
  const e = d as Record<string, unknown>;
  if (e.metric !== undefined && typeof e.metric !== 'string') return 'its metric is not a name';
  const metric = e.metric as string | undefined;
  const withMetric = <T extends object>(x: T) => (metric === undefined ? x : { ...x, metric });
  if (e.source === 'file') {
    if (!isNonEmptyString(e.uri)) return 'a file dataset without a URI';
    return withMetric({ source: 'file' as const, uri: e.uri });
  }
  if (e.source === 'diff') {
    if (!isNonEmptyString(e.baseline) || !isNonEmptyString(e.comparison)) return 'a comparison without both URIs';
    return withMetric({ source: 'diff' as const, baseline: e.baseline, comparison: e.comparison });
  }
  if (e.source === 'ensemble') {
    if (!Array.isArray(e.uris) || e.uris.length === 0 || !e.uris.every(isNonEmptyString))
      return 'an ensemble without its folder or files';
    return withMetric({ source: 'ensemble' as const, uris: [...e.uris] });
  }
  return `unknown kind ${JSON.stringify(e.source)}`;
}

/**
 * What to open when the window starts: the remembered datasets in their order, then the
 * `hpcLens.openOnStartup` files not already among them (never opened twice). The remembered active
 * dataset stays active; without one, the last startup file is (as before there was any memory).
 */
export function startupPlan(remembered: PersistedDatasets, startupUris: readonly string[]): PersistedDatasets {
  const datasets = [...remembered.datasets];
  let lastStartup = -1;
  for (const uri of startupUris) {
    const key = datasetKey({ source: 'file', uri });
    lastStartup = datasets.findIndex(d => datasetKey(d) === key);
    if (lastStartup < 0) lastStartup = datasets.push({ source: 'file', uri }) - 1;
  }
  return { version: 1, datasets, active: remembered.active >= 0 ? remembered.active : lastStartup };
}
