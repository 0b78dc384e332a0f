/**
 * Pure logic for mapping file paths recorded in a profile (absolute paths on the cluster where the
 * program was built or run) onto paths that exist here. The VS Code side (src/extension/source-resolver.ts)
 * checks which of the paths proposed here exist; nothing here touches a file system. Regex mappings
 * are matched by RE2 in linear time (user-regex.ts), in the analysis service (`mapPaths`): the
 * extension host imports only the string helpers below compileMappings/applyMappings.
 */
import { compileUserRegex, type UserRegex } from './user-regex';

/** One entry of `hpcLens.pathMappings` as the user writes it. */
export interface PathMapping {
  /** A path prefix (`/scratch/user/run42`), or a regular expression between slashes (`/^\/scratch\/[^/]+\/(src)\//`). */
  from: string;
  /** The replacement; `$1`… refer to a regex's groups, `${workspaceFolder}` to the first workspace folder. */
  to: string;
}

/** A mapping ready to apply. */
export interface CompiledMapping {
  readonly source: PathMapping;
  /** Set for a regex mapping; a prefix mapping has `prefix` instead. */
  readonly regex?: UserRegex;
  readonly prefix?: string;
  /** `to` with the variables substituted. */
  readonly to: string;
}

/** Values for `${…}` variables in `to`: `workspaceFolder`, and `workspaceFolder:<name>` per folder. */
export type MappingVariables = Readonly<Record<string, string>>;

/** Recognises `/pattern/flags`; only the `i` flag is meaningful for paths. */
const REGEX_FORM = /^\/(.+)\/(i?)$/s;
/** Without one of these, `/a/b/` is a path prefix, not a pattern. */
const REGEX_META = /[\\^$()[\]{}|*+?]/;

/** Path with `\` turned into `/` and repeated or trailing separators dropped (the root stays `/`). */
export function normalizePath(p: string): string {
  const s = p.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  return s.length > 1 && s.endsWith('/') ? s.slice(0, -1) : s;
}

function substitute(to: string, vars: MappingVariables, escapeDollar: boolean): { text: string; unknown: string[] } {
  const unknown: string[] = [];
  const text = to.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) {
      unknown.push(name);
      return whole;
    }
    return escapeDollar ? v.replace(/\$/g, '$$$$') : v;
  });
  return { text, unknown };
}

/**
 * Checks and compiles `hpcLens.pathMappings`. Entries that are not `{from, to}` strings, or use an
 * unknown variable (e.g. `${workspaceFolder}` with no folder open), are skipped with a message.
 * A `from` of the form `/…/` that contains a regex metacharacter and compiles is a regex; anything
 * else is a path prefix.
 */
export function compileMappings(
  raw: unknown,
  vars: MappingVariables,
): { mappings: CompiledMapping[]; errors: string[] } {
  const mappings: CompiledMapping[] = [];
  const errors: string[] = [];
  if (raw === undefined || raw === null) return { mappings, errors };
  if (!Array.isArray(raw))
    return { mappings, errors: ['hpcLens.pathMappings must be an array of {"from", "to"} objects'] };
  raw.forEach((entry: unknown, i) => {
    const e = entry as Partial<PathMapping> | null;
    if (!e || typeof e !== 'object' || typeof e.from !== 'string' || typeof e.to !== 'string' || e.from === '') {
      errors.push(`hpcLens.pathMappings[${i}] needs string "from" and "to"`);
      return;
    }
    const source = { from: e.from, to: e.to };
    const form = REGEX_FORM.exec(e.from);
    let regex: UserRegex | undefined;
    if (form && REGEX_META.test(form[1]!)) {
      try {
        regex = compileUserRegex(form[1]!, form[2]);
      } catch (err) {
        errors.push(`hpcLens.pathMappings[${i}]: ${(err as Error).message}; "${e.from}" is used as a path prefix`);
      }
    }
    // `$` in a substituted folder path must not read as a group reference in a regex mapping's `to`.
    const { text, unknown } = substitute(e.to, vars, regex !== undefined);
    if (unknown.length) {
      errors.push(
        `hpcLens.pathMappings[${i}]: unknown variable ${unknown.map(u => `\${${u}}`).join(', ')} in "${e.to}"`,
      );
      return;
    }
    mappings.push(regex ? { source, regex, to: text } : { source, prefix: normalizePath(e.from), to: text });
  });
  return { mappings, errors };
}

/**
 * The paths `recorded` maps to, most specific mapping first: for a prefix mapping, the prefix must
 * end at a path-component boundary and the rest of the path is appended to `to`; for a regex, the
 * matched part is replaced (so `$1`… work). Longer matches come first; equal ones keep list order.
 */
export function applyMappings(recorded: string, mappings: readonly CompiledMapping[]): string[] {
  const path = normalizePath(recorded);
  const hits: { path: string; length: number; order: number }[] = [];
  mappings.forEach((m, order) => {
    if (m.regex) {
      const replaced = m.regex.replaceFirst(path, m.to);
      if (replaced) hits.push({ path: normalizePath(replaced.text), length: replaced.length, order });
      return;
    }
    const prefix = m.prefix!;
    const boundary = prefix === '/' || path.length === prefix.length || path[prefix.length] === '/';
    if (!path.startsWith(prefix) || !boundary) return;
    const rest = prefix === '/' ? path.slice(1) : path.slice(prefix.length + 1);
    const to = normalizePath(m.to);
    hits.push({ path: rest ? normalizePath(`${to}/${rest}`) : to, length: prefix.length, order });
  });
  hits.sort((a, b) => b.length - a.length || a.order - b.order);
  return [...new Set(hits.map(h => h.path))];
}

function components(p: string): string[] {
  return p.split(/[\\/]+/).filter(Boolean);
}

/** How many trailing path components `a` and `b` share. */
export function commonSuffixLength(a: string, b: string): number {
  const x = components(a),
    y = components(b);
  let k = 0;
  while (k < x.length && k < y.length && x[x.length - 1 - k] === y[y.length - 1 - k]) k++;
  return k;
}

/** The outcome of suffix matching. */
export type SuffixMatch =
  | { kind: 'unique'; path: string; length: number }
  | { kind: 'ambiguous'; paths: string[]; length: number }
  | { kind: 'none' };

/**
 * Of `candidates`, the one sharing the longest run of trailing path components with `recorded`
 * (at least the file name). When two or more distinct candidates share that longest run, the answer
 * is ambiguous: they are all returned and none is picked.
 */
export function rankSuffixMatches(recorded: string, candidates: readonly string[]): SuffixMatch {
  let best: string[] = [];
  let bestLen = 0;
  for (const c of new Set(candidates)) {
    const k = commonSuffixLength(recorded, c);
    if (k === 0 || k < bestLen) continue;
    if (k > bestLen) {
      best = [c];
      bestLen = k;
    } else best.push(c);
  }
  if (bestLen === 0) return { kind: 'none' };
  return best.length === 1
    ? { kind: 'unique', path: best[0]!, length: bestLen }
    : { kind: 'ambiguous', paths: best, length: bestLen };
}

/** Names profilers record where no source file is known (`<unknown file>`, `[vdso]`, `??`). */
export function isPseudoPath(p: string): boolean {
  const s = p.trim();
  return s === '' || s === '??' || /^<.*>$/.test(s) || /^\[.*\]$/.test(s);
}

/** Parent folder of a normalised path (`/` for a top-level file). */
export function dirnameOf(p: string): string {
  const n = normalizePath(p);
  const i = n.lastIndexOf('/');
  return i <= 0 ? (i === 0 ? '/' : '.') : n.slice(0, i);
}

/** Last component of a path. */
export function basenameOf(p: string): string {
  return components(p).pop() ?? '';
}

/**
 * The mapping that remembers "`recorded` is `chosen` here": folder to folder when the file names
 * agree (so the recorded file's siblings resolve too), otherwise file to file. `chosen` under
 * `workspaceFolder` is written relative to `${workspaceFolder}` so the setting travels with the repo.
 */
export function mappingForAnswer(recorded: string, chosen: string, workspaceFolder?: string): PathMapping {
  const sameName = basenameOf(recorded) === basenameOf(chosen);
  const from = sameName ? dirnameOf(recorded) : normalizePath(recorded);
  let to = sameName ? dirnameOf(chosen) : normalizePath(chosen);
  if (workspaceFolder) {
    const ws = normalizePath(workspaceFolder);
    if (to === ws) to = '${workspaceFolder}';
    else if (to.startsWith(`${ws}/`)) to = `\${workspaceFolder}${to.slice(ws.length)}`;
  }
  return { from, to };
}

/** `mappings` with `add` in front, replacing an earlier mapping with the same `from`. */
export function withMapping(mappings: readonly PathMapping[], add: PathMapping): PathMapping[] {
  return [add, ...mappings.filter(m => m.from !== add.from)];
}
