/**
 * A reader for the YAML subset hpcprof writes in `metrics/default.yaml`: block mappings and
 * sequences by indentation, `&anchor`s on items and values, `*alias` values, plain and quoted
 * one-line scalars, and flow sequences of plain words (`render: [number, percent]`). The full `yaml`
 * library took ~30 % of a first read of a 64-profile database (issue 24): compiling and running a
 * general parser, CST and document model for a file whose few fields we use. Anything outside the
 * subset — flow mappings, block scalars, multi-line plain scalars, merge keys, tags, tabs,
 * several documents — returns null, and the caller parses the text with the `yaml` library.
 */

interface Line {
  indent: number;
  text: string;
}

class Unsupported extends Error {}

/** The document as plain values, or null when the text leaves the subset. */
export function parseSimpleYaml(text: string): unknown {
  try {
    return new SimpleYaml(text).document();
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

class SimpleYaml {
  private readonly lines: Line[] = [];
  private at = 0;
  private readonly anchors = new Map<string, unknown>();

  constructor(text: string) {
    for (const raw of text.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const body = line.trimStart();
      if (body === '' || body.startsWith('#')) continue;
      if (line.includes('\t')) throw new Unsupported();
      if (line.startsWith('---') || line.startsWith('...') || line.startsWith('%')) throw new Unsupported();
      this.lines.push({ indent: line.length - body.length, text: stripComment(body) });
    }
  }

  document(): unknown {
    if (this.lines.length === 0) return null;
    const v = this.block(this.lines[0]!.indent);
    if (this.at < this.lines.length) throw new Unsupported();
    return v;
  }

  private block(indent: number): unknown {
    const line = this.lines[this.at]!;
    if (line.indent !== indent) throw new Unsupported();
    return isItem(line.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (
      let line = this.lines[this.at];
      line && line.indent === indent && isItem(line.text);
      line = this.lines[this.at]
    ) {
      const { anchor, rest } = splitAnchor(line.text.slice(1).trimStart());
      let value: unknown;
      if (rest === '') {
        this.at++;
        value = this.nested(indent);
      } else if (keyOf(rest) !== null) {
        // "- key: value": a mapping whose first line starts after the dash.
        this.lines[this.at] = { indent: indent + line.text.length - rest.length, text: rest };
        value = this.mapping(this.lines[this.at]!.indent);
      } else {
        this.at++;
        value = this.scalar(rest);
      }
      if (anchor !== null) this.anchors.set(anchor, value);
      out.push(value);
    }
    return out;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let line = this.lines[this.at]; line && line.indent === indent; line = this.lines[this.at]) {
      if (isItem(line.text)) throw new Unsupported();
      const key = keyOf(line.text);
      if (key === null || key === '<<') throw new Unsupported();
      const { anchor, rest } = splitAnchor(line.text.slice(line.text.indexOf(':', key.length) + 1).trim());
      this.at++;
      let value: unknown;
      if (rest !== '') value = this.scalar(rest);
      else {
        const next = this.lines[this.at];
        // A sequence may sit at its key's own indentation.
        value = next && next.indent === indent && isItem(next.text) ? this.sequence(indent) : this.nested(indent);
      }
      if (anchor !== null) this.anchors.set(anchor, value);
      out[key] = value;
    }
    const after = this.lines[this.at];
    if (after && after.indent > indent) throw new Unsupported();
    return out;
  }

  /** The block under a line at `indent`: deeper lines, or null when none follow. */
  private nested(indent: number): unknown {
    const next = this.lines[this.at];
    return next && next.indent > indent ? this.block(next.indent) : null;
  }

  private scalar(text: string): unknown {
    const c = text[0];
    if (c === '*') {
      const name = text.slice(1);
      if (!this.anchors.has(name)) throw new Unsupported();
      return this.anchors.get(name);
    }
    if (c === '"') {
      if (!text.endsWith('"') || text.length < 2) throw new Unsupported();
      try {
        return JSON.parse(text) as string;
      } catch {
        throw new Unsupported();
      }
    }
    if (c === "'") {
      if (!text.endsWith("'") || text.length < 2) throw new Unsupported();
      const inner = text.slice(1, -1);
      if (/'(?!')/.test(inner.replace(/''/g, ''))) throw new Unsupported();
      return inner.replace(/''/g, "'");
    }
    if (c === '[') {
      if (!text.endsWith(']') || /[[\]{}"'&*]/.test(text.slice(1, -1))) throw new Unsupported();
      const inner = text.slice(1, -1).trim();
      return inner === '' ? [] : inner.split(',').map(s => plain(s.trim()));
    }
    if (c === '{' || c === '|' || c === '>' || c === '!' || c === '&' || c === '@' || c === '`')
      throw new Unsupported();
    return plain(text);
  }
}

/** `&name rest` → the anchor and the rest (a suffix of `text`); no anchor → null and `text`. */
function splitAnchor(text: string): { anchor: string | null; rest: string } {
  if (!text.startsWith('&')) return { anchor: null, rest: text };
  const end = text.indexOf(' ');
  return end < 0
    ? { anchor: text.slice(1), rest: '' }
    : { anchor: text.slice(1, end), rest: text.slice(end + 1).trimStart() };
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** The key of a `key: value` or `key:` line (plain keys only), else null. */
function keyOf(text: string): string | null {
  const c = text[0];
  if (c === '"' || c === "'" || c === '?' || c === '[' || c === '{' || c === '*' || c === '&') return null;
  // The first `: ` or final `:` (`/:( |$)/` by hand: a regular expression is compiled on first use).
  let colon = text.indexOf(':');
  while (colon >= 0 && colon + 1 < text.length && text[colon + 1] !== ' ') colon = text.indexOf(':', colon + 1);
  return colon <= 0 ? null : text.slice(0, colon).trimEnd();
}

/** A line without its ` # comment`; a comment beside quotes (which may hold ` #`) is left to the library. */
function stripComment(text: string): string {
  const hash = text.indexOf(' #');
  if (hash < 0) return text.trimEnd();
  if (text.includes('"') || text.includes("'")) throw new Unsupported();
  return text.slice(0, hash).trimEnd();
}

/**
 * A plain scalar as YAML 1.2's core schema reads it. Numbers, infinities and NaN start with a sign, a
 * dot or a digit; anything else is a string without trying the expressions, each compiled on first use
 * in every process (a taxonomy's scalars are mostly names, scopes and formulas).
 */
function plain(text: string): unknown {
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (text === 'true' || text === 'True' || text === 'TRUE') return true;
  if (text === 'false' || text === 'False' || text === 'FALSE') return false;
  if (!'+-.0123456789'.includes(text[0]!)) return text;
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text, 16);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(text)) return NaN;
  return text;
}
