/**
 * Finds where a function is defined in source text, for placing CodeLens when the profile knows a
 * function's file but not its definition line (sampling profiles record sampled lines). Heuristic
 * and language-light on purpose: C/C++/CUDA, Fortran and Python definitions.
 */

/** The bare identifier of a profiled function name: `ns::Solver::step(int) const` → `step`. */
export function bareFunctionName(name: string): string {
  let n = name.trim();
  const paren = n.indexOf('(');
  if (paren > 0) n = n.slice(0, paren);
  n = n.replace(/<[^<>]*>/g, '');
  const parts = n.split('::');
  n = parts[parts.length - 1]!.trim();
  const space = n.lastIndexOf(' ');
  if (space >= 0) n = n.slice(space + 1);
  return n.replace(/^[*&]+/, '');
}

/**
 * 0-based line of the definition of `name`, or -1. When `near` (a 0-based line known to be inside
 * the function) is given, the last definition at or before it wins.
 */
export function findFunctionDefinition(text: string, name: string, near?: number): number {
  const id = bareFunctionName(name);
  if (!/^[A-Za-z_$][\w$]*$/.test(id)) return -1;
  const lines = text.split(/\r?\n/);
  const candidates: number[] = [];
  const cLike = new RegExp(`^(?:[A-Za-z_][\\w\\s\\*&:<>,]*[\\s\\*&:])?${id}\\s*\\(`);
  const python = new RegExp(`^\\s*(?:async\\s+)?def\\s+${id}\\s*\\(`);
  const fortran = new RegExp(`^\\s*(?:[\\w\\s\\(\\)\\*=,]*\\s)?(?:subroutine|function)\\s+${id}\\b`, 'i');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (python.test(line) || fortran.test(line)) {
      candidates.push(i);
      continue;
    }
    // C-like: the name at the start of a declaration (not indented: not a call inside a body),
    // followed by a body `{` before any `;` (not a prototype).
    if (!cLike.test(line) || /^\s/.test(line) || /^(?:return|else|if|while|for|switch|do)\b/.test(line)) continue;
    if (isDefinition(lines, i)) candidates.push(i);
  }
  if (candidates.length === 0) return -1;
  if (near === undefined) return candidates[0]!;
  let best = candidates[0]!;
  for (const c of candidates) if (c <= near) best = c;
  return best;
}

function isDefinition(lines: string[], start: number): boolean {
  for (let i = start; i < Math.min(lines.length, start + 12); i++) {
    const l = lines[i]!.replace(/\/\/.*$/, '');
    const brace = l.indexOf('{');
    const semi = l.indexOf(';');
    if (brace >= 0 && (semi < 0 || brace < semi)) return true;
    if (semi >= 0) return false;
  }
  return false;
}
