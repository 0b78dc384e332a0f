import { NodeKind } from '../model/call-tree';
import {
  isTimeUnit,
  normaliseUnit,
  type MetricAggregation,
  type MetricDescriptor,
  type MetricKind,
} from '../model/metric';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import {
  parseCubeAnchor,
  type CubeAnchor,
  type CubeLocation,
  type CubeMetricDefinition,
  type CubeRegion,
} from './cube/anchor-xml';
import { CubeFormatError } from './cube/cube-format-error';
import { zlib } from './io/zlib';
import { cubeRowOrder, decodeCubeData, parseCubeIndex, scalarType } from './cube/metric-values';
import { readTarArchive } from './cube/tar-archive';
import { readHeadBytes } from './file-sample';
import { isGzip, readBytes, readChunks } from './io/file-input';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { CUBE_FORMAT_ID, cubeSniffer } from './sniffers/cube';

/**
 * CUBE profiles as Score-P and Scalasca write them (Hatchet's `from_scorep` reads the same files):
 *
 * - CUBE4 `.cubex`: a tar archive of `anchor.xml` (metrics, regions, the call tree of cnodes, the
 *   system tree of processes and threads) plus `<metric id>.index` / `.data` binaries per metric
 *   (see cube/metric-values.ts). Plain or gzip-compressed archives, dense or sparse indexes,
 *   uncompressed or zlib-compressed rows, either byte order.
 * - CUBE3 `.cube`: the same XML schema in one file, with the values inline in `<severity>`.
 *
 * Every cnode becomes a call-tree node (cnodes calling the same region from the same parent stay
 * separate nodes, as in Cube's own browser), every location (thread) a context. Metric semantics:
 * INCLUSIVE metrics (time) store inclusive values and the model derives the true self cost;
 * EXCLUSIVE and CUBE3 metrics store self values; SIMPLE metrics and the MINDOUBLE/MAXDOUBLE
 * statistics (min_time, max_time: the shortest and longest single visit) are not additive along
 * the tree, so both sides carry the recorded value and `aggregation` says how contexts combine.
 */

/** Derived metrics hold CubePL formulas, not values. */
const DERIVED_TYPES = new Set(['POSTDERIVED', 'PREDERIVED_INCLUSIVE', 'PREDERIVED_EXCLUSIVE']);
/** `mod` values that name a source file rather than a module such as `MPI`. */
const SOURCE_FILE =
  /[\\/]|\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|f|for|ftn|f77|f90|f95|f03|f08|cu|cuh|cl|py|rs|go|java|chpl|upc)$/i;
/** Paradigms that say nothing about where code lives; others (mpi, openmp, cuda, …) serve as a module. */
const GENERIC_PARADIGMS = new Set(['', 'user', 'compiler', 'sampling', 'measurement', 'unknown']);
/** Region roles of annotated or structured code blocks rather than called functions. */
const BLOCK_ROLES = new Set([
  'code',
  'phase',
  'dynamic phase',
  'parallel',
  'sections',
  'section',
  'workshare',
  'single',
  'master',
  'critical',
  'ordered',
  'task',
  'task untied',
]);

function nodeKindOf(region: CubeRegion): NodeKind {
  const role = region.role.toLowerCase();
  if (role.includes('loop')) return NodeKind.Loop;
  return BLOCK_ROLES.has(role) ? NodeKind.Region : NodeKind.Function;
}

/** `mod` is a source file for compiler-instrumented and sampled code, a module name (`MPI`) otherwise. */
function locationOf(region: CubeRegion): { file: string | null; line: number | null; module: string | null } {
  const mod = region.mod.trim();
  const line = region.begin > 0 ? region.begin : null;
  if (mod && SOURCE_FILE.test(mod)) return { file: mod, line, module: null };
  if (mod) return { file: null, line, module: mod };
  const paradigm = region.paradigm.toLowerCase();
  return { file: null, line, module: GENERIC_PARADIGMS.has(paradigm) ? null : paradigm };
}

function metricSemantics(def: CubeMetricDefinition): { kind: MetricKind; aggregation: MetricAggregation } {
  const dtype = def.dtype.trim().toUpperCase();
  if (dtype === 'MINDOUBLE') return { kind: 'both', aggregation: 'min' };
  if (dtype === 'MAXDOUBLE') return { kind: 'both', aggregation: 'max' };
  if (def.type === 'INCLUSIVE') return { kind: 'inclusive', aggregation: 'sum' };
  if (def.type === 'SIMPLE') return { kind: 'both', aggregation: 'sum' };
  return { kind: 'exclusive', aggregation: 'sum' };
}

function unitOf(uom: string): string {
  const unit = normaliseUnit(uom);
  return unit.toLowerCase() === 'occ' ? 'count' : unit;
}

/** Rows of one metric: the call-tree node of each row and its values, row-major (rows × locations). */
interface MetricRows {
  nodes: Int32Array;
  values: Float64Array;
}

type RowSource = (def: CubeMetricDefinition) => MetricRows | null;

/** An entry of the archive by name, gunzipped when it is stored compressed (as `name` or `name.gz`). */
function archiveEntry(files: Map<string, Uint8Array>, name: string): Uint8Array | undefined {
  const stored = files.get(name) ?? files.get(`${name}.gz`);
  if (!stored || !isGzip(stored)) return stored;
  try {
    return zlib().gunzipSync(stored);
  } catch (e) {
    throw new CubeFormatError(`${name} is gzip-compressed but corrupt (${(e as Error).message})`);
  }
}

/** Rows of CUBE4 metrics from the `.index` / `.data` entries of the archive. */
function archiveRows(anchor: CubeAnchor, files: Map<string, Uint8Array>, warnings: string[]): RowSource {
  const orders = new Map<string, Int32Array>();
  return def => {
    const indexName = `${def.id}.index`;
    const dataName = `${def.id}.data`;
    const index = archiveEntry(files, indexName);
    const data = archiveEntry(files, dataName);
    if (!index && !data) return null;
    const what = `metric "${def.uniqName}"`;
    if (!index) throw new CubeFormatError(`${dataName} (${what}) is in the archive but ${indexName} is missing`);
    if (!data) throw new CubeFormatError(`${indexName} (${what}) is in the archive but ${dataName} is missing`);
    const type = scalarType(def.dtype);
    if (!type) {
      warnings.push(`${what} has data type ${def.dtype}, which HPC Lens does not read; it was left out`);
      return null;
    }
    const n = anchor.tree.size;
    const layout = inEntry(indexName, what, () => parseCubeIndex(index, n));
    const rows = layout.positions ? layout.positions.length : n;
    const values = inEntry(dataName, what, () =>
      decodeCubeData(data, rows, anchor.locations.length, type, layout.littleEndian),
    );
    const orderKind = def.type === 'INCLUSIVE' ? 'inclusive' : 'exclusive';
    let order = orders.get(orderKind);
    if (!order) orders.set(orderKind, (order = cubeRowOrder(anchor.tree.parent, orderKind)));
    const nodes = layout.positions ? layout.positions.map(p => order![p]!) : order;
    return { nodes, values };
  };
}

/** Runs a decoder, prefixing its complaints with the archive entry they are about. */
function inEntry<T>(entry: string, what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CubeFormatError) throw new CubeFormatError(`${entry} (${what}): ${e.message}`);
    throw e;
  }
}

/** Rows of CUBE3 metrics from the inline `<severity>` matrices. */
function inlineRows(anchor: CubeAnchor): RowSource {
  const nodeOfCnode = new Map<number, number>();
  anchor.tree.cnodeId.forEach((id, i) => nodeOfCnode.set(id, i));
  return def => {
    const m = anchor.severity.get(def.id);
    if (!m) return null;
    const nodes = new Int32Array(m.cnodeIds.length);
    m.cnodeIds.forEach((id, r) => {
      const node = nodeOfCnode.get(id);
      if (node === undefined)
        throw new CubeFormatError(
          `the severity matrix of metric "${def.uniqName}" has a row for cnode ${id}, which is not in the call tree`,
        );
      nodes[r] = node;
    });
    return { nodes, values: m.values };
  };
}

/** Execution context coordinates of a location: rank = process, thread = thread number (GPU streams as streams). */
function contextCoordinates(
  l: CubeLocation,
  singleThreaded: boolean,
): { rank: number; thread?: number; gpuStream?: number } {
  if (/accelerator|gpu|stream/i.test(l.type)) return { rank: l.groupRank, gpuStream: l.rank };
  return singleThreaded ? { rank: l.groupRank } : { rank: l.groupRank, thread: l.rank };
}

/** Builds the model from a parsed anchor and the rows of each metric. */
async function buildCubeProfile(
  anchor: CubeAnchor,
  rowsOf: RowSource,
  path: string,
  warnings: string[],
  options: ReadOptions,
): Promise<Profile> {
  const { tree, regions, locations } = anchor;
  if (tree.size === 0) throw new CubeFormatError('the call tree is empty (no <cnode> in <program>)');
  if (locations.length === 0)
    throw new CubeFormatError('the system tree has no locations (threads), so no value can be placed');
  const b = new ProfileBuilder(CUBE_FORMAT_ID, path);

  // Many cnodes call the same region: work out each region's node attributes once.
  const nodeOfRegion = new Map<
    number,
    { name: string; kind: NodeKind; file: string | null; line: number | null; module: string | null }
  >();
  const seenIds = new Set<number>();
  for (let i = 0; i < tree.size; i++) {
    const id = tree.cnodeId[i]!;
    if (seenIds.has(id)) throw new CubeFormatError(`cnode id ${id} is used twice`);
    seenIds.add(id);
    const regionId = tree.region[i]!;
    let node = nodeOfRegion.get(regionId);
    if (!node) {
      const region = regions.get(regionId);
      if (!region) throw new CubeFormatError(`cnode ${id} calls region ${regionId}, which is not defined`);
      nodeOfRegion.set(
        regionId,
        (node = { name: region.name || `region ${regionId}`, kind: nodeKindOf(region), ...locationOf(region) }),
      );
    }
    const params = tree.parameters.get(i);
    b.tree.add(tree.parent[i]!, params ? `${node.name} [${params}]` : node.name, node.kind, {
      file: node.file,
      line: node.line,
      module: node.module,
      callLine: tree.callLine[i] || null,
    });
  }

  const perGroup = new Map<number, number>();
  for (const l of locations) perGroup.set(l.groupRank, (perGroup.get(l.groupRank) ?? 0) + 1);
  const singleThreaded = [...perGroup.values()].every(n => n === 1);
  const contextOf = new Int32Array(locations.length);
  const ownerOfContext = new Map<number, CubeLocation>();
  for (const l of locations) {
    const c = b.context(contextCoordinates(l, singleThreaded));
    const owner = ownerOfContext.get(c);
    if (owner)
      warnings.push(`locations "${owner.name}" and "${l.name}" have the same rank and thread; their values were added`);
    else ownerOfContext.set(c, l);
    contextOf[l.id] = c;
  }

  const L = locations.length;
  const derived: string[] = [];
  const usedNames = new Set<string>();
  const descriptors: MetricDescriptor[] = [];
  for (const [k, def] of anchor.metrics.entries()) {
    // Metrics are decoded one by one; in between, a cancel request gets its chance to arrive.
    await new Promise(resolve => setImmediate(resolve));
    throwIfAborted(options.signal);
    options.onProgress?.(0.7 + (0.25 * k) / anchor.metrics.length, 'Reading metric values');
    if (DERIVED_TYPES.has(def.type)) {
      derived.push(def.uniqName || def.dispName);
      continue;
    }
    if (def.val.toUpperCase() === 'VOID') continue;
    const rows = rowsOf(def);
    if (!rows) continue;
    let name = def.uniqName || def.dispName || `metric ${def.id}`;
    if (usedNames.has(name)) name = `${name}#${def.id}`;
    usedNames.add(name);
    const { kind, aggregation } = metricSemantics(def);
    const descriptor: MetricDescriptor = {
      name,
      label: def.dispName || name,
      sourceKeys: [def.uniqName || String(def.id)],
      unit: unitOf(def.uom),
      kind,
      aggregation,
    };
    const m = b.addMetric(descriptor);
    descriptors.push(descriptor);
    const { nodes, values } = rows;
    const toExclusive = kind !== 'inclusive';
    const toInclusive = kind !== 'exclusive';
    for (let r = 0; r < nodes.length; r++) {
      const node = nodes[r]!;
      for (let c = 0, at = r * L; c < L; c++, at++) {
        const v = values[at]!;
        if (v === 0) continue;
        if (toExclusive) b.addExclusive(m, node, contextOf[c]!, v);
        if (toInclusive) b.addInclusive(m, node, contextOf[c]!, v);
      }
    }
  }
  if (descriptors.length === 0)
    throw new CubeFormatError(
      `no metric has values (the file defines ${anchor.metrics.map(d => d.uniqName).join(', ') || 'no metrics'})`,
    );
  if (derived.length) warnings.push(`derived (CubePL) metrics are not computed: ${derived.join(', ')}`);
  if (anchor.attributes['CLUSTERING']?.toUpperCase() === 'ON')
    warnings.push(
      'the profile was written with call-path clustering; its clustered call tree is shown as stored, clusters are not expanded',
    );

  b.metadata['cube.version'] = anchor.version;
  for (const [k, v] of Object.entries(anchor.attributes)) b.metadata[k] = v;
  b.warnings.push(...warnings);
  const time = descriptors.findIndex(d => d.name === 'time');
  const anyTime = descriptors.findIndex(d => isTimeUnit(d.unit));
  const profile = b.build(time >= 0 ? time : Math.max(anyTime, 0));
  options.onProgress?.(1);
  return profile;
}

function startsWithXml(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c;
}

/** Slices of an in-memory document for the streaming XML parser. */
function* slices(bytes: Uint8Array, size = 1 << 20): Generator<Uint8Array> {
  for (let o = 0; o < bytes.length; o += size) yield bytes.subarray(o, o + size);
}

async function readCube(path: string, options: ReadOptions): Promise<Profile> {
  const { signal, onProgress, limits } = options;
  throwIfAborted(signal);
  const warnings: string[] = [];
  // The first bytes (gunzipped) tell a tar archive from an XML document: read synchronously, where a
  // stream would load Node's stream machinery and take several event-loop turns in a fresh process.
  if (startsWithXml(readHeadBytes(path, 4096))) {
    const anchor = await parseCubeAnchor(
      readChunks(path, { signal, limits, onProgress: f => onProgress?.(0.7 * f, 'Reading CUBE XML') }),
      { signal },
    );
    if (!anchor.version.startsWith('3')) {
      throw new CubeFormatError(
        `this is the anchor.xml of a CUBE ${anchor.version || '4'} archive on its own; the values are in the .cubex archive it came from: open that instead`,
      );
    }
    return buildCubeProfile(anchor, inlineRows(anchor), path, warnings, options);
  }
  const bytes = await readBytes(path, {
    signal,
    limits,
    onProgress: f => onProgress?.(0.4 * f, 'Reading CUBE archive'),
  });
  const archive = readTarArchive(bytes);
  warnings.push(...archive.warnings);
  const anchorBytes = archiveEntry(archive.files, 'anchor.xml');
  if (!anchorBytes) {
    const names = [...archive.files.keys()];
    throw new CubeFormatError(
      `the archive has no anchor.xml (it holds ${names.length ? names.slice(0, 8).join(', ') + (names.length > 8 ? ', …' : '') : 'no files'}): not a CUBE4 profile`,
    );
  }
  const anchor = await parseCubeAnchor(slices(anchorBytes), {
    signal,
    onBytes: n => onProgress?.(0.4 + (0.3 * n) / anchorBytes.length, 'Reading anchor.xml'),
  });
  return buildCubeProfile(anchor, archiveRows(anchor, archive.files, warnings), path, warnings, options);
}

export const cubeReader: ProfileReader = {
  ...cubeSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    try {
      return await readCube(path, options);
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
  },
};
