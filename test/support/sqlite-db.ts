import type { SqlValue } from 'sql.js';
import { sqlEngine } from '../../src/analysis/formats/nsight-sqlite/sqlite';

/** Tables of a test database: column names and rows. */
export type SqliteTables = Record<string, { cols: string[]; rows?: SqlValue[][] }>;

/** A database file built with sql.js; column types are left to SQLite's affinity, as nsys declares them loosely too. */
export async function makeSqliteDb(tables: SqliteTables): Promise<Buffer> {
  const SQL = await sqlEngine();
  const db = new SQL.Database();
  try {
    for (const [name, t] of Object.entries(tables)) {
      db.run(`CREATE TABLE "${name}" (${t.cols.map(c => `"${c}"`).join(', ')})`);
      for (const r of t.rows ?? []) db.run(`INSERT INTO "${name}" VALUES (${r.map(() => '?').join(', ')})`, r);
    }
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}
