import { quoteContent } from '../../errors/format-error';
import { NodeKind } from '../../model/call-tree';
import type { MetadataValue, Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { ProfileReadError } from '../reader';
import {
  baseAttribute,
  caliperMajorVersion,
  CALLPATH,
  isBookkeepingAttribute,
  MODULE,
  PATH,
  RANK,
  REGION_ATTRIBUTES,
  SOURCELOC,
} from './attributes';
import { AttributeProperty, isNumericType } from './cali-metadata';
import type { ValueColumn } from './metrics';
import { assembleCaliperProfile } from './profile-assembly';
import { RowStore } from './row-store';

/** What a record form may say about an attribute (json's object layout has an "attributes" section). */
export interface RecordAttribute {
  type?: string;
  props?: number;
  nested?: boolean;
  unit?: string;
  alias?: string;
}

// Roles of record keys; value columns are numbered from 0.
const PATH_KEY = -1;
const CALLPATH_KEY = -2;
const RANK_KEY = -3;
const LOCATION_KEY = -4;
const MODULE_KEY = -5;
/** Region attribute k of REGION_ATTRIBUTES (or a nested attribute the file declares) is -100 - k. */
const REGION_KEY = -100;

/**
 * Rows of the record forms of `cali-query` output: `json` (an array of flat objects) and `expand`
 * (`key=value,…` lines). A record maps attribute names to values. Nested attributes are either one
 * `path` value, `main/solve/loop` (json since Caliper 2), or one value per nested attribute,
 * `function=main/solve,loop=lulesh.cycle` (expand, json with `separate-nested`): that form loses
 * how the attributes interleave, so several of them are joined in a fixed order (annotation,
 * region, function, loop, mpi.function) and the profile gets a warning. Values that are numbers
 * in every record are metrics; other values (strings, `true`) are labels and not read.
 */
export class RecordTable {
  private readonly roles = new Map<string, number>();
  private readonly regionNames: string[] = [];
  /** Region attributes in the order their values join into a path (REGION_ATTRIBUTES first). */
  private readonly regionOrder: number[] = [];
  private readonly columnNames: string[] = [];
  private readonly nonNumeric: number[] = [];
  private readonly store = new RowStore();
  private readonly pathMemo = new Map<string, number>();
  private readonly regionMemo = new Map<string, number>();
  private readonly callMemo = new Map<string, number>();
  private sawPathKey = false;
  private interleavingLost = 0;

  // The record being read.
  private pathText: string | null = null;
  private callText: string | null = null;
  private readonly regionValues: (string | null)[] = [];
  private regionCount = 0;
  private rank = NaN;
  private location = -1;
  private module = -1;
  private readonly pendingColumn: number[] = [];
  private readonly pendingValue: number[] = [];

  /** Run metadata (json's "globals"). */
  readonly metadata: Record<string, MetadataValue> = {};
  /** What the file says about attributes (json's "attributes"), keyed by name. */
  readonly attributes = new Map<string, RecordAttribute>();

  constructor(
    private readonly path: string,
    private readonly format: string,
  ) {}

  beginRecord(): void {
    this.pathText = null;
    this.callText = null;
    this.regionValues.fill(null);
    this.regionCount = 0;
    this.rank = NaN;
    this.location = -1;
    this.module = -1;
    this.pendingColumn.length = 0;
    this.pendingValue.length = 0;
  }

  /** One attribute of the record; `where` names the record in error messages (`record 3`, `line 7`). */
  field(key: string, value: string | number, where: string): void {
    let role = this.roles.get(key);
    if (role === undefined) this.roles.set(key, (role = this.roleOf(key)));
    if (role >= 0) {
      let v: number;
      if (typeof value === 'number') v = value;
      else if (value === '') return;
      else {
        v = Number(value);
        if (Number.isNaN(v) && !/^[-+]?(nan|inf|infinity)$/i.test(value)) this.nonNumeric[role]!++;
      }
      this.pendingColumn.push(role);
      this.pendingValue.push(v);
      return;
    }
    const text = typeof value === 'number' ? String(value) : value;
    if (role === PATH_KEY) this.pathText = text;
    else if (role === CALLPATH_KEY) this.callText = text;
    else if (role === RANK_KEY) {
      const rank = Number(text);
      if (text === '' || !Number.isInteger(rank))
        throw new ProfileReadError(this.path, `${where}: mpi.rank ${quoteContent(text)} is not an integer`);
      this.rank = rank;
      this.store.hasRank = true;
    } else if (role === LOCATION_KEY) {
      this.location = this.store.labels.intern(text);
      this.store.hasLocation = true;
    } else if (role === MODULE_KEY) {
      this.module = this.store.labels.intern(text);
      this.store.hasModule = true;
    } else if (role <= REGION_KEY) {
      const k = REGION_KEY - role;
      if (this.regionValues[k] == null) this.regionCount++;
      this.regionValues[k] = text;
    }
  }

  endRecord(): void {
    let path = -1;
    if (this.pathText !== null) path = this.pathNode(this.pathText);
    else if (this.regionCount > 0) path = this.regionPathNode();
    let call = -1;
    if (this.callText !== null) {
      call = this.callMemo.get(this.callText) ?? -1;
      if (call < 0)
        this.callMemo.set(
          this.callText,
          (call = this.store.callpaths.path(this.callText.split('/'), () => NodeKind.Function)),
        );
    }
    if (path < 0 && call < 0) return;
    this.store.add(
      path,
      call,
      this.rank,
      this.location,
      this.module,
      this.pendingColumn,
      this.pendingValue,
      this.pendingColumn.length,
    );
  }

  /** The node of the record's separately written nested attributes, joined in `regionOrder`. */
  private regionPathNode(): number {
    let key = '';
    for (const k of this.regionOrder)
      if (this.regionValues[k] != null) key += `${k}\u0001${this.regionValues[k]}\u0002`;
    let path = this.regionMemo.get(key);
    if (path !== undefined) return path;
    if (this.regionCount > 1) this.interleavingLost++;
    path = -1;
    for (const k of this.regionOrder) {
      const text = this.regionValues[k];
      if (text == null) continue;
      const kind = this.regionNames[k] === 'loop' ? NodeKind.Loop : NodeKind.Region;
      path = this.store.paths.path(text.split('/'), () => kind, path);
    }
    this.regionMemo.set(key, path);
    return path;
  }

  private pathNode(text: string): number {
    let node = this.pathMemo.get(text);
    if (node === undefined)
      this.pathMemo.set(text, (node = this.store.paths.path(text.split('/'), () => NodeKind.Region)));
    return node;
  }

  private roleOf(key: string): number {
    if (key === PATH) {
      this.sawPathKey = true;
      return PATH_KEY;
    }
    if (key === CALLPATH) return CALLPATH_KEY;
    if (key === RANK) return RANK_KEY;
    if (key === SOURCELOC) return LOCATION_KEY;
    if (key === MODULE) return MODULE_KEY;
    if (REGION_ATTRIBUTES.includes(key) || this.attributes.get(key)?.nested) {
      const k = this.regionNames.push(key) - 1;
      this.regionValues.push(null);
      this.regionOrder.push(k);
      const rank = (i: number) => {
        const r = REGION_ATTRIBUTES.indexOf(this.regionNames[i]!);
        return r < 0 ? REGION_ATTRIBUTES.length + i : r;
      };
      this.regionOrder.sort((x, y) => rank(x) - rank(y));
      return REGION_KEY - k;
    }
    this.columnNames.push(key);
    this.nonNumeric.push(0);
    return this.columnNames.length - 1;
  }

  /** A value column is a metric when all its values were numbers and nothing the file says contradicts it. */
  private isMetric(column: number): boolean {
    const name = this.columnNames[column]!;
    if (this.nonNumeric[column]! > 0 || isBookkeepingAttribute(name)) return false;
    const attr = this.attributes.get(name);
    if (attr?.type !== undefined && !isNumericType(attr.type)) return false;
    return !(attr?.props !== undefined && attr.props & AttributeProperty.Hidden);
  }

  build(): Profile {
    const b = new ProfileBuilder(this.format, this.path);
    Object.assign(b.metadata, this.metadata);
    const columns: ValueColumn[] = [];
    for (let c = 0; c < this.columnNames.length; c++) {
      if (!this.isMetric(c)) continue;
      const attr = this.attributes.get(this.columnNames[c]!);
      columns.push({ index: c, name: this.columnNames[c]!, alias: attr?.alias, unit: attr?.unit });
    }
    // The record forms rarely carry the Caliper version that fixes the unit of time.duration. A
    // json `path` key is written only by Caliper 2 (seconds); otherwise assume a current Caliper too.
    const assumedMajor = 2;
    if (caliperMajorVersion(b.metadata) === null && !this.sawPathKey) {
      const guessed = columns.filter(c => !c.unit && baseAttribute(c.name) === 'time.duration').map(c => c.name);
      if (guessed.length)
        b.warnings.push(
          `${guessed.join(', ')}: the file gives no unit or Caliper version; the values are taken as seconds (Caliper 2 and later)`,
        );
    }
    if (this.interleavingLost > 0) {
      const order = this.regionOrder.map(k => this.regionNames[k]).join(', ');
      b.warnings.push(
        `${this.interleavingLost} paths come from several nested attributes (${order}) written separately, which loses how they nest; they are joined in that order`,
      );
    }
    return assembleCaliperProfile(
      b,
      this.store.rows(b, columns),
      'no metrics: no attribute has numeric values in every record',
      assumedMajor,
    );
  }
}
