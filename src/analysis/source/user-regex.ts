/**
 * Regular expressions from the user's settings (module maps, path mappings), written `/pattern/flags`,
 * matched by RE2 (re2js) in time linear in the input: a pattern such as `/^\/(a+)+\/x$/` cannot stall
 * the worker that applies it, as it would JavaScript's backtracking RegExp (seconds on a 24-character
 * path, ×4 per two more characters). RE2 has no look-around and no back-references; a pattern using
 * them is refused with that reason (user-regex-syntax.ts, which the extension host uses alone).
 */
import type { RE2JS as RE2JSClass } from 're2js';
import { regexForm, userRegexProblem } from './user-regex-syntax';

export { regexForm, userRegexProblem } from './user-regex-syntax';

let loaded: typeof RE2JSClass | undefined;
/**
 * re2js, loaded on first use: evaluating it costs every process that loads a bundle with the readers
 * time and ~70 KB of young heap, and most processes never compile a user pattern.
 */
function re2(): typeof RE2JSClass {
  return (loaded ??= (require('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS);
}

/** RE2's flag bits for the flags that mean something (computed on use: importing this module runs nothing). */
function flagBits(flags: string): number {
  const RE2JS = re2();
  let bits = 0;
  for (const f of new Set(flags))
    bits |= f === 'i' ? RE2JS.CASE_INSENSITIVE : f === 's' ? RE2JS.DOTALL : f === 'm' ? RE2JS.MULTILINE : 0;
  return bits;
}

/** A compiled user pattern. */
export interface UserRegex {
  readonly source: string;
  /** Whether the pattern matches somewhere in `s`. */
  test(s: string): boolean;
  /**
   * `s` with its first match replaced by `template` (`$1`…`$9` groups, `$&` the match, `$$` a
   * dollar), and the match's length; null when the pattern does not match.
   */
  replaceFirst(s: string, template: string): { text: string; length: number } | null;
}

/** Compiles `/pattern/flags`; throws an Error whose message says why a pattern cannot be used. */
export function compileUserRegex(pattern: string, flags = ''): UserRegex {
  const problem = userRegexProblem(pattern, flags);
  if (problem) throw new Error(problem);
  let re: RE2JSClass;
  try {
    re = re2().compile(pattern, flagBits(flags));
  } catch (e) {
    // RE2's syntax is narrower than JavaScript's in places (e.g. some escapes).
    throw new Error(`not a pattern RE2 accepts: ${(e as Error).message}`, { cause: e });
  }
  const groups = re.groupCount();
  return {
    source: `/${pattern}/${flags}`,
    test: s => re.matcher(s).find(),
    replaceFirst(s, template) {
      const m = re.matcher(s);
      if (!m.find()) return null;
      const start = m.start(),
        end = m.end();
      const expanded = template.replace(/\$(\$|&|[1-9])/g, (_, what: string) => {
        if (what === '$') return '$';
        if (what === '&') return s.slice(start, end);
        const k = Number(what);
        return k <= groups ? (m.group(k) ?? '') : `$${what}`;
      });
      return { text: s.slice(0, start) + expanded + s.slice(end), length: end - start };
    },
  };
}

/** `text` as a user regex when it has the `/…/` form, else null; throws (with the reason) when the form is there but unusable. */
export function userRegexOf(text: string): UserRegex | null {
  const form = regexForm(text);
  return form ? compileUserRegex(form.pattern, form.flags) : null;
}
