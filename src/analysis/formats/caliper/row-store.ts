import type { ProfileBuilder } from '../../model/profile-builder';
import { StringTable } from '../../model/string-table';
import type { ValueColumn } from './metrics';
import { NameTree } from './name-tree';
import type { CaliperRows } from './profile-assembly';

/**
 * The records of a Caliper stream (.cali, json, expand) as compact columns while they stream in:
 * per record its region path and call path (nodes of two NameTrees, -1 for none), rank, sampled
 * source location and module (ids into `labels`, -1 for none), and its values as (column, value)
 * cells. Only records with a path are kept: the others are the global record, which Hatchet drops.
 */
export class RowStore {
  readonly paths = new NameTree();
  readonly callpaths = new NameTree();
  readonly labels = new StringTable();
  hasRank = false;
  hasLocation = false;
  hasModule = false;

  // Row columns and cell columns, written in place: one capacity check per record instead of a
  // Growable push per value, whose shared code V8 would otherwise optimise in the middle of a
  // KB-size first read (the read then pays for compiling it).
  private rowCapacity = 0;
  private rowPath: Int32Array = new Int32Array(0);
  private rowCall: Int32Array = new Int32Array(0);
  private rowRank: Float64Array = new Float64Array(0);
  private rowLocation: Int32Array = new Int32Array(0);
  private rowModule: Int32Array = new Int32Array(0);
  // Row r's cells are [cellEnd(r - 1), cellEnd(r)).
  private rowCellEnd: Int32Array = new Int32Array(0);
  private cellColumn: Int32Array = new Int32Array(0);
  private cellValue: Float64Array = new Float64Array(0);
  private rowCount = 0;
  private cellCount = 0;

  /** `rows` is how many records the stream may hold at most (e.g. its line count), to size the columns once. */
  constructor(rows = 64) {
    this.reserveRows(rows);
    this.reserveCells(rows * 4);
  }

  get count(): number {
    return this.rowCount;
  }

  /** Makes room for `rows` records in all (a reader that learns its record count late calls this then). */
  reserveRows(rows: number): void {
    if (rows <= this.rowCapacity) return;
    const n = this.rowCount;
    this.rowPath = grownInt32(this.rowPath, rows, n);
    this.rowCall = grownInt32(this.rowCall, rows, n);
    this.rowRank = grownFloat64(this.rowRank, rows, n);
    this.rowLocation = grownInt32(this.rowLocation, rows, n);
    this.rowModule = grownInt32(this.rowModule, rows, n);
    this.rowCellEnd = grownInt32(this.rowCellEnd, rows, n);
    this.rowCapacity = rows;
  }

  private reserveCells(cells: number): void {
    if (cells <= this.cellColumn.length) return;
    this.cellColumn = grownInt32(this.cellColumn, cells, this.cellCount);
    this.cellValue = grownFloat64(this.cellValue, cells, this.cellCount);
  }

  /** Appends a record whose values are `values[j]` of column `columns[j]`, j < `cells`. */
  add(
    path: number,
    call: number,
    rank: number,
    location: number,
    module: number,
    columns: readonly number[],
    values: readonly number[],
    cells: number,
  ): void {
    const r = this.rowCount;
    if (r === this.rowCapacity) this.reserveRows(Math.max(16, 2 * r));
    let k = this.cellCount;
    if (k + cells > this.cellColumn.length) this.reserveCells(Math.max(64, 2 * (k + cells)));
    this.rowPath[r] = path;
    this.rowCall[r] = call;
    this.rowRank[r] = rank;
    this.rowLocation[r] = location;
    this.rowModule[r] = module;
    const { cellColumn, cellValue } = this;
    for (let j = 0; j < cells; j++, k++) {
      cellColumn[k] = columns[j]!;
      cellValue[k] = values[j]!;
    }
    this.rowCellEnd[r] = k;
    this.cellCount = k;
    this.rowCount = r + 1;
  }

  /**
   * Adds the call tree to the builder and returns the rows on it. Sampling profiles are organised by
   * call path, annotated ones by region path: the call path wins when any record has one (as in
   * json-split, where it is the tree column).
   */
  rows(b: ProfileBuilder, columns: readonly ValueColumn[]): CaliperRows {
    const n = this.count;
    let byCallPath = false;
    for (let r = 0; r < n && !byCallPath; r++) byCallPath = this.rowCall[r]! >= 0;
    const rowTree = (byCallPath ? this.rowCall : this.rowPath).slice(0, n);
    const model = (byCallPath ? this.callpaths : this.paths).addTo(b.tree, rowTree);
    const { labels, rowRank, rowLocation, rowModule, rowCellEnd, cellColumn, cellValue } = this;
    const rowNode = new Int32Array(n);
    for (let r = 0; r < n; r++) rowNode[r] = rowTree[r]! >= 0 ? model[rowTree[r]!]! : -1;
    const label = (id: number) => (id >= 0 ? labels.get(id) : null);
    return {
      count: n,
      columns,
      node: r => rowNode[r]!,
      rank: this.hasRank ? r => rowRank[r]! : null,
      location: this.hasLocation ? r => label(rowLocation[r]!) : null,
      module: this.hasModule ? r => label(rowModule[r]!) : null,
      forEachValue(r, add) {
        for (let k = r === 0 ? 0 : rowCellEnd[r - 1]!, end = rowCellEnd[r]!; k < end; k++)
          add(cellColumn[k]!, cellValue[k]!);
      },
      columnar: this.columnar(rowNode),
    };
  }

  /**
   * The rows as typed columns, so that assembly adds each metric's values in one bulk call instead of
   * a call per value (the same triples in the same order: each metric's values in row order). Only
   * when no record repeats a column (a column then holds one value per row) and the columns are
   * dense enough that one array per column costs at most a few times the cells.
   */
  private columnar(rowNode: Int32Array): CaliperRows['columnar'] {
    const n = this.rowCount;
    const { rowCellEnd, cellColumn, cellValue } = this;
    let columnCount = 0;
    for (let k = 0; k < this.cellCount; k++) if (cellColumn[k]! >= columnCount) columnCount = cellColumn[k]! + 1;
    if (columnCount * n > 4 * this.cellCount + 4096) return undefined;
    const lastRow = new Int32Array(columnCount).fill(-1);
    for (let r = 0, k = 0; r < n; r++) {
      for (const end = rowCellEnd[r]!; k < end; k++) {
        const c = cellColumn[k]!;
        if (lastRow[c] === r) return undefined;
        lastRow[c] = r;
      }
    }
    let byColumn: Float64Array[] | null = null;
    return {
      node: rowNode,
      rank: this.hasRank ? this.rowRank.subarray(0, n) : null,
      values(column: number): Float64Array {
        if (byColumn === null) {
          // Every column in one pass over the cells (NaN = the row has no value of it).
          byColumn = [];
          for (let c = 0; c < columnCount; c++) byColumn.push(new Float64Array(n).fill(NaN));
          for (let r = 0, k = 0; r < n; r++)
            for (const end = rowCellEnd[r]!; k < end; k++) byColumn[cellColumn[k]!]![r] = cellValue[k]!;
        }
        return byColumn[column] ?? new Float64Array(n).fill(NaN);
      },
    };
  }
}

/** `array` with room for `capacity` values, its first `used` kept. */
function grownInt32(array: Int32Array, capacity: number, used: number): Int32Array {
  const next = new Int32Array(capacity);
  if (used > 0) next.set(array.subarray(0, used));
  return next;
}

function grownFloat64(array: Float64Array, capacity: number, used: number): Float64Array {
  const next = new Float64Array(capacity);
  if (used > 0) next.set(array.subarray(0, used));
  return next;
}
