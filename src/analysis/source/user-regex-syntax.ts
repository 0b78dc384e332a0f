/**
 * The form and the checks of regular expressions in the user's settings (module maps, path
 * mappings), written `/pattern/flags`, without compiling them for matching: what the extension host
 * validates settings with. user-regex.ts compiles them for RE2 (linear-time matching) in the workers.
 */

/** `/pattern/flags`: the pattern and its flags. */
const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;

/** Flags that mean something to RE2: case-insensitive, dot matches newline, multi-line anchors. */
export const USER_REGEX_FLAGS = 'ism';
/** Flags accepted and ignored: `g` and `y` (stateful matching), `u`, `d`, `v` change nothing here. */
const IGNORED_FLAGS = 'gyudv';

/** Look-around and back-references: JavaScript accepts them, RE2 (linear time) cannot match them. */
const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]|\\k</;

/** The pattern and flags of a `/…/` setting value, or null for a plain string. */
export function regexForm(text: string): { pattern: string; flags: string } | null {
  const m = REGEX_FORM.exec(text);
  return m ? { pattern: m[1]!, flags: m[2]! } : null;
}

/**
 * Why `/pattern/flags` cannot be used (null when it can): a syntax error, an unknown flag, or a
 * construct RE2 does not match. Compiling a JavaScript RegExp to check the syntax is safe: only
 * matching can take exponential time, and nothing is matched here.
 */
export function userRegexProblem(pattern: string, flags: string): string | null {
  for (const f of flags) if (!USER_REGEX_FLAGS.includes(f) && !IGNORED_FLAGS.includes(f)) return `unknown flag "${f}"`;
  try {
    new RegExp(pattern, [...new Set(flags)].filter(f => USER_REGEX_FLAGS.includes(f) || f === 'u').join(''));
  } catch (e) {
    return (e as Error).message;
  }
  if (UNSUPPORTED.test(pattern))
    return 'look-around and back-references are not supported (patterns are matched in linear time by RE2)';
  return null;
}
