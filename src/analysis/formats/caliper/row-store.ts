import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
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

  private readonly rowPath = new GrowableInt32();
  private readonly rowCall = new GrowableInt32();
  private readonly rowRank = new GrowableFloat64();
  private readonly rowLocation = new GrowableInt32();
  private readonly rowModule = new GrowableInt32();
  // Row r's cells are [cellEnd(r - 1), cellEnd(r)).
  private readonly rowCellEnd = new GrowableInt32();
  private readonly cellColumn = new GrowableInt32();
  private readonly cellValue = new GrowableFloat64();

  get count(): number {
    return this.rowPath.length;
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
    this.rowPath.push(path);
    this.rowCall.push(call);
    this.rowRank.push(rank);
    this.rowLocation.push(location);
    this.rowModule.push(module);
    for (let j = 0; j < cells; j++) {
      this.cellColumn.push(columns[j]!);
      this.cellValue.push(values[j]!);
    }
    this.rowCellEnd.push(this.cellColumn.length);
  }

  /**
   * Adds the call tree to the builder and returns the rows on it. Sampling profiles are organised by
   * call path, annotated ones by region path: the call path wins when any record has one (as in
   * json-split, where it is the tree column).
   */
  rows(b: ProfileBuilder, columns: readonly ValueColumn[]): CaliperRows {
    const n = this.count;
    let byCallPath = false;
    for (let r = 0; r < n && !byCallPath; r++) byCallPath = this.rowCall.get(r) >= 0;
    const rowTree = (byCallPath ? this.rowCall : this.rowPath).finish();
    const model = (byCallPath ? this.callpaths : this.paths).addTo(b.tree, rowTree);
    const { labels, rowRank, rowLocation, rowModule, rowCellEnd, cellColumn, cellValue } = this;
    const label = (id: number) => (id >= 0 ? labels.get(id) : null);
    return {
      count: n,
      columns,
      node: r => (rowTree[r]! >= 0 ? model[rowTree[r]!]! : -1),
      rank: this.hasRank ? r => rowRank.get(r) : null,
      location: this.hasLocation ? r => label(rowLocation.get(r)) : null,
      module: this.hasModule ? r => label(rowModule.get(r)) : null,
      forEachValue(r, add) {
        for (let k = r === 0 ? 0 : rowCellEnd.get(r - 1), end = rowCellEnd.get(r); k < end; k++)
          add(cellColumn.get(k), cellValue.get(k));
      },
    };
  }
}
