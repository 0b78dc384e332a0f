import { resolve, sep } from 'node:path';
import { NodeKind, type CallTreeBuilder, type CallTreeColumns } from '../../model/call-tree';
import { LexicalType, Relation, type MetaDb } from './meta-db';

/**
 * How meta.db contexts become call-tree nodes (one node per context, same pre-order):
 *
 *   entry point             → Region    "main thread", "application thread", "unknown entry"
 *   function                → Function  HPCToolkit's function name, file/line of its definition
 *   loop                    → Loop      "Loop@<basename>:<line>"
 *   line                    → Statement "<basename>:<line>"
 *   instruction, lexical    → Statement "<module basename>:0x<offset>"
 *   instruction, called     → Function  same name: a frame of a procedure known only by address
 *
 * A function called from a line gets that line as its call line, so callee cost can be shown on
 * the calling line. Source paths relative to the database (copied sources) are resolved against
 * its directory; HPCToolkit's bracketed pseudo-files for binary-only code (`[libc.so.6]`) are not
 * files and only appear in names.
 */
export function addContextTree(
  meta: MetaDb,
  tree: CallTreeBuilder,
  databaseDir: string,
): { nodeOfRow: Int32Array; nodeName: string[] } {
  const { contexts: t, functions, modules } = meta;
  const files = meta.files.map(f => {
    const pseudo = /^\[.*\]$/.test(f.path);
    return {
      display: basename(f.path),
      path: pseudo ? null : resolveFile(databaseDir, f.path),
    };
  });
  const nodeOfRow = new Int32Array(t.count);
  // Node names by node id, for trace events (the tree builder keeps only string ids).
  const nodeName: string[] = [];
  // Each file's and module's string id, interned on first use: in the order tree.add would intern
  // them (name, file, module), so the string table is the same, without a hash lookup per node.
  const strings = tree.strings;
  const fileIds = new Int32Array(files.length).fill(-1);
  const moduleIds = new Int32Array(modules.length).fill(-1);
  // One node per row, written into columns sized from meta.db and handed to the tree at once.
  const n = t.count;
  const first = tree.size;
  const cols: CallTreeColumns = {
    parent: new Int32Array(n),
    name: new Int32Array(n),
    file: new Int32Array(n),
    line: new Int32Array(n),
    module: new Int32Array(n),
    kind: new Uint8Array(n),
    callLine: new Int32Array(n),
  };
  /** Row `r` becomes a node under `parent` whose file and module are meta.db's file `fi` and module `mi` (-1: none). */
  const addAt = (
    r: number,
    parent: number,
    name: string,
    kind: NodeKind,
    fi: number,
    line: number,
    mi: number,
    callLine: number,
  ) => {
    nodeName.push(name);
    cols.name[r] = strings.intern(name);
    let fileId = 0;
    if (fi >= 0) {
      fileId = fileIds[fi]!;
      if (fileId < 0) {
        const path = files[fi]!.path;
        fileId = fileIds[fi] = path ? strings.intern(path) : 0;
      }
    }
    let moduleId = 0;
    if (mi >= 0) {
      moduleId = moduleIds[mi]!;
      if (moduleId < 0) {
        const module = modules[mi]!;
        moduleId = moduleIds[mi] = module ? strings.intern(module) : 0;
      }
    }
    cols.parent[r] = parent;
    cols.kind[r] = kind;
    cols.file[r] = fileId;
    cols.line[r] = line;
    cols.module[r] = moduleId;
    cols.callLine[r] = callLine;
    nodeOfRow[r] = first + r;
  };
  /** `<file basename>:<line>`, made only for the loops and lines whose names it is. */
  const where = (f: number, line: number) => `${f >= 0 ? files[f]!.display : '<unknown file>'}:${line}`;
  for (let r = 0; r < t.count; r++) {
    const parentRow = t.parent[r]!;
    const parent = parentRow < 0 ? -1 : nodeOfRow[parentRow]!;
    const f = t.file[r]!,
      m = t.module[r]!,
      line = t.line[r]!;
    // Callee cost can be shown on the calling line when a callee hangs directly below a line.
    const callLine =
      parentRow >= 0 && t.lexicalType[parentRow] === LexicalType.Line && t.line[parentRow]! > 0
        ? t.line[parentRow]!
        : 0;
    if (parentRow < 0) {
      addAt(r, -1, t.entryPoints.get(r)?.name ?? `<entry point ${t.ctxId[r]}>`, NodeKind.Region, -1, 0, -1, 0);
      continue;
    }
    switch (t.lexicalType[r]) {
      case LexicalType.Function: {
        const fn = t.func[r]! >= 0 ? functions[t.func[r]!]! : null;
        const fnFile = fn && fn.file >= 0 ? fn.file : f;
        const fnModule = fn && fn.module >= 0 ? fn.module : m;
        const moduleName = fnModule >= 0 ? modules[fnModule]! : null;
        const name =
          fn?.name ?? (moduleName ? address(moduleName, fn ? fn.offset : t.offset[r]!) : '<unknown function>');
        const fnLine = fn && fn.file >= 0 ? fn.line : line;
        addAt(r, parent, name, NodeKind.Function, fnFile, fnLine, fnModule, callLine);
        break;
      }
      case LexicalType.Loop:
        addAt(r, parent, `Loop@${where(f, line)}`, NodeKind.Loop, f, line, -1, 0);
        break;
      case LexicalType.Line:
        addAt(r, parent, where(f, line), NodeKind.Statement, f, line, m, 0);
        break;
      case LexicalType.Instruction: {
        const called = t.relation[r] !== Relation.Lexical;
        const kind = called ? NodeKind.Function : NodeKind.Statement;
        addAt(r, parent, address(m >= 0 ? modules[m]! : null, t.offset[r]!), kind, f, line, m, called ? callLine : 0);
        break;
      }
      default: {
        // A lexical type newer than format 4.0: keep the context (its values count) under a neutral name.
        const name = `<context ${t.ctxId[r]} of type ${t.lexicalType[r]}>`;
        addAt(r, parent, name, NodeKind.Statement, f, line, m, 0);
      }
    }
  }
  tree.addColumns(cols);
  return { nodeOfRow, nodeName };
}

function address(module: string | null, offset: bigint): string {
  return `${module ? basename(module) : '<unknown module>'}:0x${offset.toString(16)}`;
}

/** A `/`, `.` or `..` segment, an empty segment or a trailing slash: what path.resolve would change. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/**
 * path.resolve(dir, path), without path.resolve's character-by-character normalisation when the
 * answer is already normal: on POSIX an absolute path, or a relative one under an absolute `dir`,
 * with no empty, `.` or `..` segment and no trailing slash resolves to itself. A cold process pays
 * for that normalisation in the interpreter, for each of a database's source files.
 */
function resolveFile(dir: string, path: string): string {
  if (sep === '/') {
    const full = path.startsWith('/') ? path : dir.startsWith('/') && path !== '' ? `${dir}/${path}` : null;
    if (full !== null && !NOT_NORMAL.test(full)) return full;
  }
  return resolve(dir, path);
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || path;
}
