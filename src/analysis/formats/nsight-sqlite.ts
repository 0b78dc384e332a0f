import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { readBytes } from './io/file-input';
import { buildNsight, nsysDeviceProperties } from './nsight-sqlite/build';
import { SQLITE_MAGIC, sqlEngine, SqliteFile } from './nsight-sqlite/sqlite';
import { isAbortError, ProfileReadError, type ProfileReader, type ReadOptions } from './reader';
import { nsightSqliteSniffer } from './sniffers/nsight-sqlite';

/** Tables that carry Nsight Systems activity; an export has StringIds and at least one of them. */
const ACTIVITY_TABLES = [
  'CUPTI_ACTIVITY_KIND_KERNEL',
  'CUPTI_ACTIVITY_KIND_RUNTIME',
  'CUPTI_ACTIVITY_KIND_MEMCPY',
  'CUPTI_ACTIVITY_KIND_MEMSET',
  'NVTX_EVENTS',
  'OSRT_API',
  'COMPOSITE_EVENTS',
];

/** Export metadata worth showing (EXPORT_META_DATA name → profile metadata key). */
const META_KEYS: Record<string, string> = {
  EXPORT_PRODUCT_VERSION: 'nsys version',
  EXPORT_SCHEMA_VERSION: 'schema version',
  EXPORT_INPUT_FILE: 'report',
  EXPORT_HOST: 'export host',
};

/**
 * Nsight Systems SQLite export (`nsys export --type sqlite`), read with sql.js (SQLite compiled to
 * WebAssembly) from the whole file in memory: SQLite needs random access.
 *
 * Tracks are CPU threads (globalTid) and GPU streams (process, device, stream). On a thread, NVTX
 * ranges (MPI calls with `nsys --trace=mpi`), CUDA API and OS runtime calls nest by time; kernels,
 * memcpys and memsets hang under the CUDA API call with the same correlationId (with a launch flow),
 * and memcpys/memsets are data-movement records. CPU sampling call chains become samples. The
 * profile's `time` is exclusive slice time (ns), `bytes` the bytes moved, `samples` the CPU samples.
 */
export const nsightSqliteReader: ProfileReader = {
  ...nsightSqliteSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const { signal, onProgress, limits } = options;
    const bytes = await readBytes(path, {
      signal,
      limits,
      onProgress: f => onProgress?.(0.3 * f, 'Reading the database'),
    });
    if (bytes.length < 100 || bytes.toString('latin1', 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC) {
      throw new ProfileReadError(path, 'not an SQLite database (it does not start with "SQLite format 3")');
    }
    const SQL = await sqlEngine().catch((e: unknown) => {
      throw new ProfileReadError(
        path,
        `the SQLite engine (sql.js WebAssembly) could not be loaded: ${(e as Error).message}`,
        { cause: e },
      );
    });
    const db = new SQL.Database(bytes);
    try {
      const file = new SqliteFile(db, signal);
      const activity = ACTIVITY_TABLES.filter(t => file.has(t));
      if (!file.has('StringIds') || activity.length === 0) {
        const missing = [
          !file.has('StringIds') ? 'the StringIds table' : '',
          activity.length === 0 ? `any activity table (${ACTIVITY_TABLES.join(', ')})` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        throw new ProfileReadError(path, `an SQLite database, but not an Nsight Systems export: it lacks ${missing}`);
      }
      const b = new ProfileBuilder('nsight-sqlite', path);
      if (file.has('EXPORT_META_DATA')) {
        file.each('SELECT name, value FROM EXPORT_META_DATA', r => {
          const k = META_KEYS[String(r[0])];
          if (k && r[1] !== null) b.metadata[k] = String(r[1]);
        });
      }
      if (file.has('TARGET_INFO_GPU')) {
        const gpus: string[] = [];
        file.each(`SELECT ${file.select('TARGET_INFO_GPU', ['name'])} FROM TARGET_INFO_GPU`, r => {
          if (typeof r[0] === 'string') gpus.push(r[0]);
        });
        if (gpus.length) b.metadata['GPUs'] = gpus.join(', ');
        const devices = nsysDeviceProperties(file);
        if (devices.length) b.metadata['deviceProperties'] = devices;
      }
      const profile = buildNsight(file, b, signal, f => onProgress?.(0.3 + 0.7 * f, 'Building the timeline'));
      onProgress?.(1);
      return profile;
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      // sql.js reports damage lazily, on the first query that touches a bad page.
      throw new ProfileReadError(path, `the SQLite database cannot be read (${(e as Error).message})`, { cause: e });
    } finally {
      db.close();
    }
  },
};
