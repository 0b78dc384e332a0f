/**
 * User module maps (CallFlow §1.7): rules that put call sites into named modules, e.g.
 * `{ match: 'name', pattern: '/^MPI_/', module: 'MPI' }`. A pattern between slashes (with optional
 * flags) is a regular expression, anything else an exact string. Rules are tried in order and the
 * first match wins (CallFlow rejects overlaps; an ordered list lets a specific rule precede a broad one).
 * Regular expressions are matched by RE2 in linear time (source/user-regex.ts): a map from an
 * untrusted workspace cannot stall the worker.
 */
import { userRegexOf, type UserRegex } from '../source/user-regex';
import { regexForm, userRegexProblem } from '../source/user-regex-syntax';
export interface ModuleRule {
  /** What the pattern is tested against: the function name, its source file path, or its load module. */
  match: 'name' | 'file' | 'module';
  pattern: string;
  module: string;
}

export interface CompiledModuleMap {
  readonly rules: readonly ModuleRule[];
  /** The module of a call site, or null when no rule matches. */
  moduleOf(name: string, file: string | null, loadModule: string | null): string | null;
  /** True when some rule looks at file paths (callers then key their caches by file too). */
  readonly usesFile: boolean;
}

const MATCH_KINDS = ['name', 'file', 'module'] as const;

export function compileModuleMap(rules: readonly ModuleRule[]): CompiledModuleMap {
  const tests = rules.map((r, k) => {
    let re: UserRegex | null;
    try {
      re = userRegexOf(r.pattern);
    } catch (e) {
      throw new Error(
        `module map rule ${k + 1} (${r.module}): invalid regular expression ${r.pattern}: ${(e as Error).message}`,
        { cause: e },
      );
    }
    const pick =
      r.match === 'name'
        ? (n: string) => n
        : r.match === 'file'
          ? (_: string, f: string | null) => f
          : (_: string, __: string | null, m: string | null) => m;
    const test = re ? (s: string) => re.test(s) : (s: string) => s === r.pattern;
    return (n: string, f: string | null, m: string | null) => {
      const s = pick(n, f, m);
      return s !== null && test(s);
    };
  });
  return {
    rules,
    usesFile: rules.some(r => r.match === 'file'),
    moduleOf(name, file, loadModule) {
      for (let k = 0; k < tests.length; k++) if (tests[k]!(name, file, loadModule)) return rules[k]!.module;
      return null;
    },
  };
}

/**
 * Validates rules from an untyped source (settings, a per-dataset file): keeps the well-formed ones
 * and names what is wrong with the others, so one typo does not discard the whole map.
 */
export function parseModuleRules(raw: unknown): { rules: ModuleRule[]; problems: string[] } {
  const rules: ModuleRule[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { rules, problems };
  if (!Array.isArray(raw))
    return { rules, problems: ['the module map must be an array of {match, pattern, module} objects'] };
  raw.forEach((r: unknown, k) => {
    const where = `module map rule ${k + 1}`;
    if (typeof r !== 'object' || r === null) {
      problems.push(`${where} is not an object`);
      return;
    }
    const { match, pattern, module } = r as Record<string, unknown>;
    if (!MATCH_KINDS.includes(match as ModuleRule['match'])) {
      problems.push(`${where}: "match" must be one of ${MATCH_KINDS.join(', ')}, not ${JSON.stringify(match)}`);
      return;
    }
    if (typeof pattern !== 'string' || pattern === '') {
      problems.push(`${where}: "pattern" must be a non-empty string`);
      return;
    }
    if (typeof module !== 'string' || module.trim() === '') {
      problems.push(`${where}: "module" must be a non-empty string`);
      return;
    }
    const form = regexForm(pattern);
    const problem = form && userRegexProblem(form.pattern, form.flags);
    if (problem) {
      problems.push(`${where}: invalid regular expression ${pattern}: ${problem}`);
      return;
    }
    rules.push({ match: match as ModuleRule['match'], pattern, module: module.trim() });
  });
  return { rules, problems };
}
