import { NodeKind, type CallTreeBuilder, type NodeAttributes } from '../../model/call-tree';
import { GrowableInt32 } from '../../model/growable';

/** Frame ids stay below 2^26 and node ids below 2^27 so that (parent, frame) packs exactly into one double. */
const FRAME_LIMIT = 2 ** 26;
const NODE_LIMIT = 2 ** 27;

/**
 * Turns sampled stacks (lists of frames) into call-tree paths, shared by every sampled-stack reader
 * (perf script, folded stacks, speedscope; later pprof and perf.data). A frame is interned once by
 * its name and attributes; a node is interned once per (parent node, frame), so equal stack
 * prefixes share nodes. Lookups key on packed numbers, so a stack costs no allocation.
 */
export class StackInterner {
  private readonly frameIds = new Map<string, number>();
  private readonly frameNames: string[] = [];
  private readonly frameAttrs: NodeAttributes[] = [];
  private readonly frameKinds: NodeKind[] = [];
  private readonly children = new Map<number, number>();
  private readonly nodeFrames = new GrowableInt32(1024);
  private readonly nodeDepths = new GrowableInt32(1024);

  constructor(readonly tree: CallTreeBuilder) {}

  get frameCount(): number {
    return this.frameNames.length;
  }

  /** Id of the frame with this name and attributes, created on first use. */
  frame(name: string, attrs: NodeAttributes = {}, kind: NodeKind = NodeKind.Function): number {
    const key = `${kind}\u0000${name}\u0000${attrs.file ?? ''}\u0000${attrs.line ?? 0}\u0000${attrs.module ?? ''}\u0000${attrs.callLine ?? 0}`;
    let id = this.frameIds.get(key);
    if (id === undefined) {
      id = this.frameNames.length;
      if (id >= FRAME_LIMIT) throw new RangeError(`more than ${FRAME_LIMIT} distinct frames`);
      this.frameIds.set(key, id);
      this.frameNames.push(name);
      this.frameAttrs.push(attrs);
      this.frameKinds.push(kind);
    }
    return id;
  }

  frameName(frame: number): string {
    return this.frameNames[frame]!;
  }

  /** The node for `frame` called from `parent` (-1 for a root), created on first use. */
  child(parent: number, frame: number): number {
    const key = (parent + 1) * FRAME_LIMIT + frame;
    let node = this.children.get(key);
    if (node === undefined) {
      node = this.tree.add(parent, this.frameNames[frame]!, this.frameKinds[frame]!, this.frameAttrs[frame]);
      if (node >= NODE_LIMIT) throw new RangeError(`more than ${NODE_LIMIT} call-tree nodes`);
      this.children.set(key, node);
      this.nodeFrames.push(frame);
      this.nodeDepths.push(parent < 0 ? 0 : this.nodeDepths.get(parent) + 1);
    }
    return node;
  }

  /**
   * The leaf node of a stack given as frame ids `frames[0 … length-1]`, either root first (speedscope,
   * folded stacks) or leaf first (perf, pprof). Returns -1 for an empty stack.
   */
  path(frames: ArrayLike<number>, length: number, rootFirst: boolean): number {
    let node = -1;
    if (rootFirst) for (let i = 0; i < length; i++) node = this.child(node, frames[i]!);
    else for (let i = length - 1; i >= 0; i--) node = this.child(node, frames[i]!);
    return node;
  }

  /** Frame a node was made from. */
  frameOf(node: number): number {
    return this.nodeFrames.get(node);
  }
  /** Depth of a node (0 for a root). */
  depth(node: number): number {
    return this.nodeDepths.get(node);
  }
}
