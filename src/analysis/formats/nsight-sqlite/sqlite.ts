import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js';
import { throwIfAborted } from '../reader';

export { SQLITE_MAGIC } from '../sniffers/nsight-sqlite';

let engine: Promise<SqlJsStatic> | null = null;

/**
 * sql.js's WebAssembly: beside the running bundle in the built extension (esbuild.mjs copies it into
 * dist/), else from node_modules (tests, `tsx` CLI runs).
 */
export function sqlWasmPath(): string {
  const bundled = join(__dirname, 'sql-wasm.wasm');
  // createRequire keeps esbuild from trying to bundle the wasm file.
  return existsSync(bundled) ? bundled : createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
}

/** The sql.js engine, loaded once. The wasm bytes are handed over directly, so no fetch/locateFile is involved. */
export function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= (async () => {
    const wasm = readFileSync(sqlWasmPath());
    return initSqlJs({
      wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
    });
  })().catch((e: unknown) => {
    engine = null;
    throw e;
  });
  return engine;
}

/** A read-only view of an SQLite database that tolerates tables and columns absent from older schemas. */
export class SqliteFile {
  readonly tables: Set<string>;
  private readonly columnCache = new Map<string, Set<string>>();

  constructor(
    readonly db: Database,
    private readonly signal?: AbortSignal,
  ) {
    this.tables = new Set<string>();
    this.each(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`, r => {
      this.tables.add(String(r[0]));
    });
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  columns(table: string): Set<string> {
    let c = this.columnCache.get(table);
    if (!c) {
      c = new Set();
      if (this.has(table))
        this.each(`PRAGMA table_info("${table}")`, r => {
          c!.add(String(r[1]));
        });
      this.columnCache.set(table, c);
    }
    return c;
  }

  /** `"col"` for present columns, `NULL` for absent ones, so one query fits every schema version. */
  select(table: string, cols: readonly string[]): string {
    const have = this.columns(table);
    return cols.map(c => (have.has(c) ? `"${c}"` : 'NULL')).join(', ');
  }

  /** Calls `onRow` for every result row; checks for cancellation every 64k rows. */
  each(sql: string, onRow: (row: SqlValue[]) => void): number {
    const stmt = this.db.prepare(sql);
    let n = 0;
    try {
      while (stmt.step()) {
        onRow(stmt.get());
        if ((++n & 0xffff) === 0) throwIfAborted(this.signal);
      }
    } finally {
      stmt.free();
    }
    return n;
  }

  /** The first column of the first row, or null. */
  scalar(sql: string): SqlValue {
    let v: SqlValue = null;
    const stmt = this.db.prepare(sql);
    try {
      if (stmt.step()) v = stmt.get()[0] ?? null;
    } finally {
      stmt.free();
    }
    return v;
  }
}
