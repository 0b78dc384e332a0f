import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { throwIfAborted } from '../model/cancellation';
import { findFunctionDefinition } from '../source/function-definitions';
import type { PdesHandlerMap } from './handlers';

/**
 * Where the event handlers of `hpcLens.pdes.handlers` are in the model's source, found from where
 * the run is opened (the analysis worker reads the disk the workspace is on): a setting's `file` is
 * an absolute path, a path relative to a source root (a workspace folder, `hpcLens.sourceSearchRoots`)
 * or a glob over those roots (the defaults start with the globstar `**`, any folders). The handler
 * lines come from the file's text (the same definition finder the CodeLens uses), so the editor
 * profile puts each handler at its line and heat marks it. A file not found is recorded by its path without the
 * leading glob, which the editor's source resolver still matches by trailing path components.
 */
export interface HandlerSourceLocation {
  /** What the editor profile records: the file found (absolute), else the setting's path without a leading glob. */
  file: string;
  found: boolean;
  /** 1-based definition lines of the forward and reverse handlers; 0 when not found. */
  forwardLine: number;
  reverseLine: number;
}

export interface LocateOptions {
  signal?: AbortSignal;
  /** Directory entries a glob may visit over all roots (default 20,000): a huge root is searched in part, never for long. */
  maxEntries?: number;
}

/** Folders never searched: dependencies, VCS data and build trees hold no model sources worth a CodeLens. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__']);

/** Locates every LP type's handler source under `roots`, by LP type. */
export async function locateHandlerSources(
  handlers: PdesHandlerMap,
  roots: readonly string[],
  options: LocateOptions = {},
): Promise<Map<string, HandlerSourceLocation>> {
  const out = new Map<string, HandlerSourceLocation>();
  let listing: Promise<string[]> | undefined;
  const files = () => (listing ??= listFiles(roots, options));
  const texts = new Map<string, Promise<string | null>>();
  const textOf = (path: string) => {
    let t = texts.get(path);
    if (!t) texts.set(path, (t = readFile(path, 'utf8').catch(() => null)));
    return t;
  };
  for (const [lpType, h] of Object.entries(handlers)) {
    throwIfAborted(options.signal);
    const path = await findSource(h.file, roots, files);
    const text = path ? await textOf(path) : null;
    const line = (name: string | undefined) => (text && name ? findFunctionDefinition(text, name) + 1 : 0);
    out.set(lpType, {
      file: path && text !== null ? path : recordedPath(h.file),
      found: path !== null && text !== null,
      forwardLine: line(h.forward),
      reverseLine: line(h.reverse),
    });
  }
  return out;
}

/** The setting's path as a profile records it when the file is not found: forward slashes, no leading glob. */
export function recordedPath(pattern: string): string {
  return pattern.replace(/\\/g, '/').replace(/^(?:\*\*\/)+/, '');
}

/** Whether a path has glob syntax. */
function isGlob(p: string): boolean {
  return /[*?[\]{}]/.test(p);
}

async function findSource(
  pattern: string,
  roots: readonly string[],
  files: () => Promise<string[]>,
): Promise<string | null> {
  const normalized = pattern.replace(/\\/g, '/');
  if (!isGlob(normalized)) {
    const candidates = isAbsolute(normalized) ? [normalized] : roots.map(r => join(r, normalized));
    for (const c of candidates) if (await isFile(c)) return c;
    return null;
  }
  const re = globPattern(normalized);
  const all = await files();
  // The shortest match wins (the least nested copy), then the first in root order.
  let best: string | null = null;
  for (const f of all) {
    const rel = relativeToRoot(f, roots);
    if (re.test(isAbsolute(normalized) ? f.split(sep).join('/') : rel) && (!best || f.length < best.length)) best = f;
  }
  return best;
}

function relativeToRoot(file: string, roots: readonly string[]): string {
  for (const r of roots) {
    const rel = relative(r, file);
    if (!rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return file.split(sep).join('/');
}

/**
 * A glob as a regular expression over `/`-separated paths: the globstar `**` followed by `/` any
 * folders (none included), `**` elsewhere anything, `*` and `?` within one path component, `{a,b}` alternatives, `[…]` character classes.
 */
export function globPattern(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map(escapeRegExp)
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) re += '\\[';
      else {
        re += glob.slice(i, end + 1).replace(/^\[!/, '[^');
        i = end;
      }
    } else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Files under the roots, breadth first, at most `maxEntries` directory entries visited in all. */
async function listFiles(roots: readonly string[], options: LocateOptions): Promise<string[]> {
  let budget = options.maxEntries ?? 20_000;
  const out: string[] = [];
  const queue = [...roots];
  while (queue.length && budget > 0) {
    throwIfAborted(options.signal);
    const dir = queue.shift()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (--budget < 0) break;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(e.name) && !e.name.startsWith('.')) queue.push(p);
      } else if (e.isFile()) out.push(p);
    }
  }
  return out;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
