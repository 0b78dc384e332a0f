import { DEFAULT_ENSEMBLE_OPTIONS, type EnsembleOptions } from '../../shared/ensemble-protocol';

/**
 * The Ensemble CallFlow options a user chose for one ensemble (clusters, bins, sides, order, text
 * guides…), remembered per ensemble across sessions (CallFlow §4.9 keeps its settings with the
 * ensemble): reopening the same folder, or the same Explorer selection, brings them back, while the
 * settings (e.g. `hpcLens.ensemble.clusters`) stay the defaults for other ensembles. Only options
 * that differ from the defaults the panel started with are kept, so a later change of a setting
 * still reaches an ensemble whose user never touched that option. Pure: the extension keeps it in
 * `workspaceState`; whatever the storage holds is validated by the session like a request.
 */

/** What the store needs of a `vscode.Memento`. */
export interface OptionsMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const ENSEMBLE_OPTIONS_KEY = 'hpcLens.ensembleOptions';
/** Ensembles remembered at most (the least recently used are forgotten). */
export const MAX_REMEMBERED_ENSEMBLES = 50;

interface Remembered {
  options: Partial<EnsembleOptions>;
  /** Order of last use (larger = more recent). */
  used: number;
}

/** The identity of an ensemble: the URIs it was opened from (its folder, or the selected files), in any order. */
export function ensembleOptionsKey(sources: readonly string[]): string {
  return [...sources].sort().join('\n');
}

function table(m: OptionsMemento): Record<string, Remembered> {
  const raw = m.get<unknown>(ENSEMBLE_OPTIONS_KEY);
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, Remembered>) : {};
}

/** The options remembered for an ensemble (only known option names, as stored; the session validates the values). */
export function rememberedEnsembleOptions(m: OptionsMemento, key: string): Partial<EnsembleOptions> {
  const entry = table(m)[key];
  const options = entry && typeof entry === 'object' ? entry.options : undefined;
  if (!options || typeof options !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (k in DEFAULT_ENSEMBLE_OPTIONS) out[k] = v;
  return out as Partial<EnsembleOptions>;
}

/**
 * Remembers the options of an ensemble that differ from `startedWith` (the settings' defaults);
 * forgets the ensemble when none differ. Returns without writing when nothing changed.
 */
export function rememberEnsembleOptions(
  m: OptionsMemento,
  key: string,
  options: EnsembleOptions,
  startedWith: EnsembleOptions,
): Thenable<void> | undefined {
  const chosen: Record<string, unknown> = {};
  for (const k of Object.keys(options) as (keyof EnsembleOptions)[])
    if (options[k] !== startedWith[k]) chosen[k] = options[k];
  const all = table(m);
  const before = all[key];
  if (JSON.stringify(before?.options ?? {}) === JSON.stringify(chosen)) return undefined;
  const next: Record<string, Remembered> = { ...all };
  if (Object.keys(chosen).length === 0) delete next[key];
  else
    next[key] = {
      options: chosen as Partial<EnsembleOptions>,
      used: 1 + Math.max(0, ...Object.values(all).map(e => e.used ?? 0)),
    };
  const keys = Object.keys(next).sort((a, b) => (next[b]!.used ?? 0) - (next[a]!.used ?? 0));
  for (const k of keys.slice(MAX_REMEMBERED_ENSEMBLES)) delete next[k];
  return m.update(ENSEMBLE_OPTIONS_KEY, next);
}
