/**
 * Finds where a function is defined in source text, for placing CodeLens when the profile knows a
 * function's file but not its definition line (sampling profiles record sampled lines). Heuristic
 * and language-light on purpose: C/C++/CUDA, Fortran, Python, Rust and Go definitions. The lens goes on
 * the line with the function's name, wherever attributes, storage classes and the return type are.
 */

/** The bare identifier of a profiled function name: `ns::Solver::step(int) const` → `step`. */
export function bareFunctionName(name: string): string {
  let n = name.trim();
  // Go methods `pkg.(*T).name` and Rust symbols' hash suffix `path::name::h0123456789abcdef`.
  const goMethod = /^[\w/.-]*\.\(\*?\w+\)\.(\w+)$/.exec(n);
  if (goMethod) return goMethod[1]!;
  n = n.replace(/::h[0-9a-f]{16}$/, '');
  const paren = n.indexOf('(');
  if (paren > 0) n = n.slice(0, paren);
  n = n.replace(/<[^<>]*>/g, '');
  const parts = n.split('::');
  n = parts[parts.length - 1]!.trim();
  const space = n.lastIndexOf(' ');
  if (space >= 0) n = n.slice(space + 1);
  n = n.replace(/^[*&]+/, '');
  // Compiler clones and outlined regions belong to their function: `f.cold`, `f.isra.0`, `f._omp_fn.1`.
  n = n.replace(/(?:\.(?:cold|isra|constprop|part|lto_priv|localalias|_omp_fn)(?:\.\d+)*)+$/, '');
  // Go `main.step`, Python `module.step`: the package path is not part of the identifier.
  const dot = n.lastIndexOf('.');
  return dot > 0 && /^[\w/.-]+\.[A-Za-z_]\w*$/.test(n) ? n.slice(dot + 1) : n;
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
  const rust = new RegExp(
    `^\\s*(?:pub(?:\\([^)]*\\))?\\s+)?(?:(?:const|async|unsafe|extern(?:\\s+"[^"]*")?)\\s+)*fn\\s+${id}\\s*[<(]`,
  );
  const go = new RegExp(`^func\\s+(?:\\([^)]*\\)\\s*)?${id}\\s*[[(]`);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (python.test(raw) || fortran.test(raw) || rust.test(raw) || go.test(raw)) {
      candidates.push(i);
      continue;
    }
    const line = withoutAttributes(raw);
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

/**
 * A C/C++ line without its attribute specifiers (`__attribute__((noinline))`, `[[nodiscard]]`,
 * `__declspec(noinline)`), which may come before the storage class and return type.
 */
function withoutAttributes(line: string): string {
  if (!/__attribute__|\[\[|__declspec/.test(line)) return line;
  return line
    .replace(/__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*/g, '')
    .replace(/\[\[[^\]]*\]\]\s*/g, '')
    .replace(/__declspec\s*\([^()]*\)\s*/g, '');
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
