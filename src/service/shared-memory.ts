/**
 * Copies data into SharedArrayBuffers so two threads read one copy: the worker that made a model
 * keeps it for later requests, and the extension host builds its own Profile over the same memory
 * for synchronous hovers. Measured on 10⁶ nodes × 16 ranks: the copy costs the worker ~0.1 s, the
 * host's `new Profile` over shared columns a few ms; transferring instead would leave the worker
 * without the model, and copying back per request would cost more than the one copy.
 */
import { Profile, type ProfileData } from '../analysis/model/profile';

/** A model in shared memory and its child index: what crosses threads for a profile. */
export interface SharedModel {
  data: ProfileData;
  /** The call tree's child index, built where the model was made (CallTree.adoptChildIndex). */
  childIndex?: { start: Int32Array; list: Int32Array };
}

/**
 * A profile moved into shared memory (both sides of every metric in the sparse form, so no thread
 * derives one lazily later; dense matrices are made per thread only where an analysis needs one) with
 * its child index.
 */
export function shareProfile(read: Profile): SharedModel {
  read.metrics.forEach((_, m) => {
    read.sparse('exclusive', m);
    read.sparse('inclusive', m);
  });
  const data = shared(read.toTransferable().data);
  // Built here (the inclusive derivation above already made it) and shared: at 10⁶ nodes a
  // 20–140 ms pass the host would otherwise make. The shared columns are a copy of read's.
  const childIndex = shared(read.tree.childIndex());
  return { data, childIndex };
}

/**
 * A copy of `v` whose typed arrays live in SharedArrayBuffers. Plain objects and arrays are walked
 * iteratively (metadata from files may nest deeply); typed arrays that are already shared are kept.
 */
export function shared<T>(v: T): T {
  const root = { value: v as unknown };
  const out = { value: undefined as unknown };
  // Work items: copy `from[key]` into `into[key]`.
  const stack: {
    from: Record<string | number, unknown>;
    key: string | number;
    into: Record<string | number, unknown>;
  }[] = [{ from: root as Record<string, unknown>, key: 'value', into: out as Record<string, unknown> }];
  while (stack.length) {
    const { from, key, into } = stack.pop()!;
    const x = from[key];
    if (ArrayBuffer.isView(x)) into[key] = sharedView(x);
    else if (Array.isArray(x)) {
      if (!x.some(e => e !== null && typeof e === 'object')) into[key] = x;
      else {
        const copy: unknown[] = new Array(x.length);
        into[key] = copy;
        for (let i = 0; i < x.length; i++)
          stack.push({
            from: x as unknown as Record<number, unknown>,
            key: i,
            into: copy as unknown as Record<number, unknown>,
          });
      }
    } else if (x !== null && typeof x === 'object' && isPlain(x)) {
      const copy: Record<string, unknown> = {};
      into[key] = copy;
      for (const k of Object.keys(x)) stack.push({ from: x as Record<string, unknown>, key: k, into: copy });
    } else into[key] = x;
  }
  return out.value as T;
}

function isPlain(x: object): boolean {
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function sharedView<T extends ArrayBufferView>(v: T): T {
  if (v.buffer instanceof SharedArrayBuffer) return v;
  const sab = new SharedArrayBuffer(v.byteLength);
  new Uint8Array(sab).set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  const Ctor = (v as unknown as { constructor: new (b: SharedArrayBuffer) => T }).constructor;
  return new Ctor(sab);
}

/**
 * The ArrayBuffers a message can hand over without a copy: every non-shared buffer under `v`
 * (objects, arrays and Maps walked, each buffer once). SharedArrayBuffers are shared, not moved.
 */
export function transferables(v: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const seen = new Set<object>();
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    if (ArrayBuffer.isView(x)) {
      if (x.buffer instanceof ArrayBuffer) out.add(x.buffer);
    } else if (x instanceof ArrayBuffer) out.add(x);
    else if (x instanceof Map) for (const [k, e] of x) stack.push(k, e);
    else if (Array.isArray(x)) {
      // Arrays of numbers or strings (most of a message) hold no buffer.
      if (x.length > 0 && typeof x[0] !== 'object') continue;
      for (const e of x) stack.push(e);
    } else for (const e of Object.values(x)) stack.push(e);
  }
  return [...out];
}
