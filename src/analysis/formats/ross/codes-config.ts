import type { CodesConfig, CodesConfigSection } from '../../pdes/model/run-config';
import { ProfileReadError } from '../reader';

/** Parses a CODES config; a ProfileReadError names the line of a syntax error. */
export function parseCodesConfig(path: string, text: string): CodesConfig {
  const tokens = tokenize(path, text);
  let i = 0;
  const fail = (what: string, at?: Token): never => {
    const t = at ?? tokens[Math.min(i, tokens.length - 1)];
    throw new ProfileReadError(path, `line ${t?.line ?? 1}: ${what}`);
  };
  const section = (name: string): CodesConfigSection => {
    const s: CodesConfigSection = { name, entries: new Map(), sections: [] };
    while (i < tokens.length && tokens[i]!.text !== '}') {
      const key = tokens[i++]!;
      if (key.kind !== 'word') fail(`expected a name, found "${key.text}"`);
      const next = tokens[i++];
      if (next?.text === '{') {
        s.sections.push(section(key.text));
        if (tokens[i++]?.text !== '}') fail(`section ${key.text} is not closed with "}"`);
      } else if (next?.text === '=') {
        if (tokens[i]?.text === '(') {
          i++;
          const list: string[] = [];
          while (i < tokens.length && tokens[i]!.text !== ')') {
            const v = tokens[i++]!;
            if (v.kind === 'punct' && v.text === ',') continue;
            if (v.kind === 'punct') fail(`unexpected "${v.text}" in the list of ${key.text}`);
            list.push(v.text);
          }
          if (tokens[i++]?.text !== ')') fail(`the list of ${key.text} is not closed with ")"`);
          s.entries.set(key.text, list);
        } else {
          const v = tokens[i++];
          if (!v || v.kind === 'punct') fail(`${key.text} has no value`);
          s.entries.set(key.text, v!.text);
        }
        if (tokens[i]?.text === ';') i++;
      } else fail(`expected "{" or "=" after ${key.text}`, key);
    }
    return s;
  };
  const root = section('');
  if (i < tokens.length) fail('unbalanced "}"');
  const groupsSection = root.sections.find(s => s.name === 'LPGROUPS');
  const lpGroups = (groupsSection?.sections ?? []).map(g => {
    const types: { name: string; count: number }[] = [];
    let repetitions = 1;
    for (const [k, v] of g.entries) {
      const n = Number(v);
      if (typeof v !== 'string' || !Number.isInteger(n) || n < 0)
        throw new ProfileReadError(path, `LPGROUPS ${g.name}: ${k} is not a count ("${String(v)}")`);
      if (k === 'repetitions') repetitions = n;
      else types.push({ name: k, count: n });
    }
    return { name: g.name, repetitions, types };
  });
  return { root, lpGroups, params: root.sections.find(s => s.name === 'PARAMS')?.entries ?? new Map() };
}

/** Whether a text looks like a CODES config (for content detection of `*.conf`). */
export function looksLikeCodesConfig(head: string): boolean {
  return /^\s*LPGROUPS\s*\{/m.test(head.replace(/#[^\n]*/g, ''));
}

/** A numeric PARAMS entry, or `fallback` when absent or not a number. */
export function numericParam(config: CodesConfig, key: string, fallback = NaN): number {
  const v = config.params.get(key);
  const n = typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

/**
 * Every LP's type, by global LP id: CODES numbers LPs group by group, repetition by repetition, and
 * within a repetition type by type (codes-mapping). Returns the type names and a type index per LP.
 */
export function codesLpTypes(config: CodesConfig): { names: string[]; typeOfLp: Int32Array } {
  const names: string[] = [];
  const typeIndex = new Map<string, number>();
  const ids: number[] = [];
  for (const g of config.lpGroups)
    for (let r = 0; r < g.repetitions; r++)
      for (const t of g.types) {
        let k = typeIndex.get(t.name);
        if (k === undefined) {
          k = names.push(t.name) - 1;
          typeIndex.set(t.name, k);
        }
        for (let c = 0; c < t.count; c++) ids.push(k);
      }
  return { names, typeOfLp: Int32Array.from(ids) };
}

interface Token {
  kind: 'word' | 'string' | 'punct';
  text: string;
  line: number;
}

function tokenize(path: string, text: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ('{}=();,'.includes(c)) {
      out.push({ kind: 'punct', text: c, line });
      i++;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new ProfileReadError(path, `line ${line}: unterminated string`);
      out.push({ kind: 'string', text: text.slice(i + 1, end), line });
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{}=();,"#]/.test(text[j]!)) j++;
      out.push({ kind: 'word', text: text.slice(i, j), line });
      i = j;
    }
  }
  return out;
}
