import { NodeKind, type CallTree } from './call-tree';

/**
 * When two call-tree nodes of different runs are "the same" node — for the ensemble union
 * (CallFlow's unify, §2.8) and for Compare Two Profiles (graph/profile-diff.ts): same calling
 * context, i.e. same parent in the merged tree and the same frame key.
 *
 * Frame key = kind + name, except for statements, loops and call sites with a known location,
 * whose key is kind + basename of the file + line: their names often embed the recorded path,
 * which differs between machines and builds, while directories do not tell them apart. Functions
 * and regions are always keyed by name, so a function that moved within its file still unifies
 * (one rule, so "Compare" and the ensemble agree). Call lines and load modules are not part of the key: they change with edits
 * and installs. Siblings with the same key inside one run fold into one union node (values add).
 */
export function isLocationKeyed(kind: number): boolean {
  return kind === NodeKind.Statement || kind === NodeKind.Loop || kind === NodeKind.CallSite;
}

/** The last component of a recorded path (either separator). */
export function fileBasename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

/** The frame key of node i as a string (stable across runs; see above). */
export function frameKey(tree: CallTree, i: number): string {
  const { kind, file, line, name } = tree.columns;
  const k = kind[i]!;
  if (isLocationKeyed(k) && file[i]! !== 0 && line[i]! > 0)
    return `${k}\u0000${fileBasename(tree.strings.get(file[i]!))}\u0000${line[i]}`;
  return `${k}\u0001${tree.strings.get(name[i]!)}`;
}

/** Interned frame keys shared by the runs of one ensemble. */
export class FrameKeys {
  private readonly byName = Array.from({ length: 8 }, () => new Map<string, number>());
  private readonly basenames = new Map<string, number>();
  private readonly byLocation = new Map<number, number>();
  private readonly byLongLocation = new Map<string, number>();
  size = 0;

  /**
   * Frame-key id of every node of a tree. String work happens once per distinct string of the
   * tree's table (cached by string id), so the per-node cost is a few array reads.
   */
  idsOf(tree: CallTree): Int32Array {
    const { kind, file, line, name } = tree.columns;
    const S = tree.strings.size;
    const nameCache = new Int32Array(S * 8).fill(-1);
    const baseCache = new Int32Array(S).fill(-1);
    const out = new Int32Array(tree.size);
    for (let i = 0; i < tree.size; i++) {
      const k = kind[i]!;
      if (isLocationKeyed(k) && file[i]! !== 0 && line[i]! > 0) {
        let b = baseCache[file[i]!]!;
        if (b < 0) baseCache[file[i]!] = b = this.intern(this.basenames, fileBasename(tree.strings.get(file[i]!)));
        const l = line[i]!;
        out[i] =
          l < 4194304
            ? this.internNumber(this.byLocation, (b * 4194304 + l) * 8 + k)
            : this.intern(this.byLongLocation, `${k}:${b}:${l}`, true);
      } else {
        const c = name[i]! * 8 + k;
        let id = nameCache[c]!;
        if (id < 0) nameCache[c] = id = this.intern(this.byName[k]!, tree.strings.get(name[i]!), true);
        out[i] = id;
      }
    }
    return out;
  }

  private intern(map: Map<string, number>, key: string, isFrame = false): number {
    let id = map.get(key);
    if (id === undefined) map.set(key, (id = isFrame ? this.size++ : map.size));
    return id;
  }

  private internNumber(map: Map<number, number>, key: number): number {
    let id = map.get(key);
    if (id === undefined) map.set(key, (id = this.size++));
    return id;
  }
}
