/** Attribute property bits (Caliper's `cali_attr_properties`). */
export const AttributeProperty = {
  AsValue: 1,
  Hidden: 128,
  Nested: 256,
  Global: 512,
} as const;

/** What a `.cali` file says about one attribute, gathered from its node and the node's ancestors. */
export interface CaliAttribute {
  name: string;
  /** Caliper type name: `int`, `uint`, `double`, `string`, `bool`, `usr`, `addr`, `type`, `ptr` ('' if unknown). */
  type: string;
  /** Property bits; see {@link AttributeProperty}. */
  props: number;
  /** `attribute.unit` or `time.unit` meta-attribute. */
  unit?: string;
  /** `attribute.alias` meta-attribute. */
  alias?: string;
}

export function isNumericType(type: string): boolean {
  return type === 'int' || type === 'uint' || type === 'double';
}

/** Ids below this are looked up in a flat table (Caliper numbers nodes from 0 up). */
const DENSE_LIMIT = 1 << 24;

// The built-in nodes take the slots equal to their ids.
const ATTRIBUTE_NAME = 8;
const ATTRIBUTE_TYPE = 9;
const ATTRIBUTE_PROP = 10;

/**
 * Caliper's built-in nodes, present in every stream without being written: the types (attribute
 * `cali.attribute.type`) and the three attributes that describe attributes. Node k has id k (its
 * slot), attribute BOOTSTRAP_ATTRS[k], parent BOOTSTRAP_PARENTS[k] (-1: none), value BOOTSTRAP_DATA[k].
 */
const BOOTSTRAP_IDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const BOOTSTRAP_ATTRS = [9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 9];
const BOOTSTRAP_PARENTS = [-1, -1, -1, -1, -1, -1, -1, -1, 3, 7, 1, -1];
const BOOTSTRAP_DATA = [
  'usr',
  'int',
  'uint',
  'string',
  'addr',
  'double',
  'bool',
  'type',
  'cali.attribute.name',
  'cali.attribute.type',
  'cali.attribute.prop',
  'ptr',
];

/**
 * The metadata tree of a `.cali` stream (`__rec=node` records). Every node has an attribute and a
 * value (`data`) and optionally a parent; an attribute is itself the node whose attribute is
 * `cali.attribute.name` (id 8), and its type, properties and meta-attributes (unit, alias) are the
 * values of its ancestors. Nodes are kept in slots, in definition order: a parent must be defined
 * before its children, so every walk towards the root visits decreasing slots and ends.
 */
export class CaliMetadata {
  // Slots by id: a flat table for the small ids Caliper hands out, a map for any others.
  private dense = new Int32Array(1024).fill(-1);
  private readonly sparse = new Map<number, number>();
  // Per slot, its attribute's slot and its parent's (-1 for none), indexed directly (no call per
  // read or write in a cold process); the first `size` entries are in use.
  private attrSlot = new Int32Array(256);
  private parentSlot = new Int32Array(256);
  private readonly data: string[] = [];
  private readonly ids: number[] = [];
  private readonly attributes: (CaliAttribute | undefined)[] = [];

  constructor() {
    // Bulk copies: a loop here would meet every property and element access for the first time in a
    // cold process, where each first meeting costs a trip to the runtime.
    this.dense.set(BOOTSTRAP_IDS);
    this.attrSlot.set(BOOTSTRAP_ATTRS);
    this.parentSlot.set(BOOTSTRAP_PARENTS);
    this.ids.push(...BOOTSTRAP_IDS);
    this.data.push(...BOOTSTRAP_DATA);
  }

  get size(): number {
    return this.data.length;
  }

  /** Slot of the node with this id, or -1. */
  slot(id: number): number {
    return id < this.dense.length ? this.dense[id]! : (this.sparse.get(id) ?? -1);
  }

  private setSlot(id: number, slot: number): void {
    if (id >= DENSE_LIMIT) {
      this.sparse.set(id, slot);
      return;
    }
    if (id >= this.dense.length) {
      const grown = new Int32Array(Math.min(DENSE_LIMIT, Math.max(id + 1, this.dense.length * 2))).fill(-1);
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[id] = slot;
  }

  idOf(slot: number): number {
    return this.ids[slot]!;
  }
  parent(slot: number): number {
    return this.parentSlot[slot]!;
  }
  value(slot: number): string {
    return this.data[slot]!;
  }
  /** Slot of the attribute node of the node in `slot`. */
  attributeOf(slot: number): number {
    return this.attrSlot[slot]!;
  }

  /**
   * Adds a node and returns its slot, or returns the reason it cannot be added. Defining an id again
   * with the same content is harmless; with other content it is an error.
   */
  define(id: number, attrId: number, data: string, parentId: number | null): number | string {
    const a = this.slot(attrId);
    if (a < 0) return `node ${id} has attribute ${attrId}, which is not defined before it`;
    if (this.attrSlot[a]! !== ATTRIBUTE_NAME) return `node ${id} has attribute ${attrId}, which is not an attribute`;
    const p = parentId === null ? -1 : this.slot(parentId);
    if (parentId !== null && p < 0) return `node ${id} has parent ${parentId}, which is not defined before it`;
    const existing = this.slot(id);
    if (existing >= 0) {
      if (this.attrSlot[existing]! === a && this.parentSlot[existing]! === p && this.data[existing] === data)
        return existing;
      return `node ${id} is defined twice, differently`;
    }
    const slot = this.data.length;
    if (slot === this.attrSlot.length) {
      const attrSlot = new Int32Array(2 * slot);
      const parentSlot = new Int32Array(2 * slot);
      attrSlot.set(this.attrSlot);
      parentSlot.set(this.parentSlot);
      this.attrSlot = attrSlot;
      this.parentSlot = parentSlot;
    }
    this.setSlot(id, slot);
    this.attrSlot[slot] = a;
    this.parentSlot[slot] = p;
    this.ids.push(id);
    this.data.push(data);
    return slot;
  }

  /** True when the node in `slot` is an attribute (its own attribute is `cali.attribute.name`). */
  isAttribute(slot: number): boolean {
    return this.attrSlot[slot]! === ATTRIBUTE_NAME;
  }

  /** The attribute whose node is in `slot` (which must be an attribute node). */
  attribute(slot: number): CaliAttribute {
    let info = this.attributes[slot];
    if (info) return info;
    info = { name: this.data[slot]!, type: '', props: 0 };
    let typeSeen = false;
    let propsSeen = false;
    for (let s = this.parentSlot[slot]!; s >= 0; s = this.parentSlot[s]!) {
      const a = this.attrSlot[s]!;
      if (a === ATTRIBUTE_TYPE) {
        if (!typeSeen) {
          info.type = this.data[s]!;
          typeSeen = true;
        }
      } else if (a === ATTRIBUTE_PROP) {
        if (!propsSeen) {
          const p = Number(this.data[s]);
          info.props = Number.isInteger(p) ? p : 0;
          propsSeen = true;
        }
      } else {
        const meta = this.data[a]!;
        if ((meta === 'attribute.unit' || meta === 'time.unit') && info.unit === undefined) info.unit = this.data[s]!;
        else if (meta === 'attribute.alias' && info.alias === undefined) info.alias = this.data[s]!;
      }
    }
    this.attributes[slot] = info;
    return info;
  }
}
