import type { MetadataValue } from '../../model/profile';

const ATTRIBUTE = /<attribute>\s*<name>([\s\S]*?)<\/name>\s*<value>([\s\S]*?)<\/value>\s*<\/attribute>/g;
const ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(ENTITY, (whole, e: string) => {
    if (e[0] !== '#') return NAMED[e] ?? whole;
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The name/value attributes of the `<metadata>…</metadata>` block TAU writes on line 2 of every
 * profile file (hostname, TAU_CALLPATH, CPU, timestamps, …), or null when the block is not closed.
 */
export function parseTauMetadata(line: string): [string, string][] | null {
  const start = line.indexOf('<metadata>');
  if (start < 0) return [];
  const end = line.indexOf('</metadata>', start);
  if (end < 0) return null;
  const out: [string, string][] = [];
  for (const m of line.slice(start, end).matchAll(ATTRIBUTE)) out.push([unescapeXml(m[1]!.trim()), unescapeXml(m[2]!)]);
  return out;
}

/** How many contexts a metadata key that differs between files lists before it is summarised. */
const MAX_LISTED_CONTEXTS = 16;

/**
 * Run metadata from the attributes of every file: a key with one value everywhere keeps that value;
 * a key whose value differs between files (pid, timestamps, node names) becomes an object from
 * context label to value, listing the first contexts only so that huge runs stay small.
 */
export class MetadataMerger {
  private readonly values = new Map<
    string,
    { first: string; perContext: [string, string][]; differs: boolean; seen: number }
  >();
  private files = 0;

  add(contextLabel: string, attributes: [string, string][]): void {
    this.files++;
    for (const [key, value] of attributes) {
      let v = this.values.get(key);
      if (!v) {
        v = { first: value, perContext: [], differs: this.files > 1, seen: 0 };
        this.values.set(key, v);
      }
      v.seen++;
      if (value !== v.first) v.differs = true;
      if (v.perContext.length < MAX_LISTED_CONTEXTS) v.perContext.push([contextLabel, value]);
    }
  }

  into(target: Record<string, MetadataValue>): void {
    for (const [key, v] of this.values) {
      if (!v.differs && v.seen === this.files) {
        target[key] = v.first;
        continue;
      }
      const listed: Record<string, MetadataValue> = Object.fromEntries(v.perContext);
      if (v.seen > v.perContext.length) listed['…'] = `${v.seen - v.perContext.length} more contexts`;
      target[key] = listed;
    }
  }
}
