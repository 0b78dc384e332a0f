import { deflateSync } from 'node:zlib';

/**
 * Writes small CUBE profiles for tests: a `.cubex` tar (anchor.xml plus `<id>.index` / `<id>.data`
 * per metric, as Cube's writer lays them out) or a CUBE3 `.cube` document. It is written from the
 * format description independently of the reader (recursive enumerations here, iterative there),
 * so a fixture checks the reader rather than mirroring it.
 */

export interface RegionSpec {
  id: number;
  name: string;
  mod?: string;
  begin?: number;
  end?: number;
  paradigm?: string;
  role?: string;
}

export interface CnodeSpec {
  /** Defaults to the pre-order position. */
  id?: number;
  region: number;
  line?: number;
  params?: [key: string, value: string][];
  children?: CnodeSpec[];
}

export interface ProcessSpec {
  rank: number;
  /** Thread numbers of the process's locations. */
  threads: number[];
  locationType?: string;
}

export interface MetricSpec {
  id: number;
  uniqName: string;
  dispName?: string;
  type?: string;
  dtype: string;
  uom: string;
  /** Values per cnode id, one per location (locations numbered process by process). No entry: no data files. */
  values?: Record<number, number[]>;
  index?: 'sparse' | 'dense';
  compressed?: boolean;
  bigEndian?: boolean;
}

export interface CubeSpec {
  version?: string;
  attrs?: Record<string, string>;
  regions: RegionSpec[];
  cnodes: CnodeSpec[];
  processes: ProcessSpec[];
  metrics: MetricSpec[];
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Cnodes in pre-order with their ids (given or the pre-order position). */
function preOrder(spec: CubeSpec): { node: CnodeSpec; id: number }[] {
  const out: { node: CnodeSpec; id: number }[] = [];
  const visit = (node: CnodeSpec) => {
    out.push({ node, id: node.id ?? out.length });
    for (const c of node.children ?? []) visit(c);
  };
  for (const root of spec.cnodes) visit(root);
  return out;
}

/** cubew's wide enumeration: a root, then all children of a node before descending into each. */
function wideOrder(spec: CubeSpec): CnodeSpec[] {
  const out: CnodeSpec[] = [];
  const visit = (node: CnodeSpec) => {
    for (const c of node.children ?? []) out.push(c);
    for (const c of node.children ?? []) visit(c);
  };
  for (const root of spec.cnodes) {
    out.push(root);
    visit(root);
  }
  return out;
}

export function anchorXml(spec: CubeSpec, severity?: string): string {
  const ids = new Map(preOrder(spec).map(({ node, id }) => [node, id]));
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '', `<cube version="${spec.version ?? '4.4'}">`];
  for (const [k, v] of Object.entries(spec.attrs ?? {}))
    out.push(`<attr key="${escapeXml(k)}" value="${escapeXml(v)}"/>`);
  out.push('<metrics>');
  for (const m of spec.metrics) {
    out.push(
      `<metric id="${m.id}"${m.type ? ` type="${m.type}"` : ''}>`,
      `<disp_name>${escapeXml(m.dispName ?? m.uniqName)}</disp_name>`,
      `<uniq_name>${escapeXml(m.uniqName)}</uniq_name>`,
      `<dtype>${m.dtype}</dtype>`,
      `<uom>${m.uom}</uom>`,
      '<url></url>',
      '<descr>test metric</descr>',
      '</metric>',
    );
  }
  out.push('</metrics>', '<program>');
  for (const r of spec.regions) {
    out.push(
      `<region id="${r.id}" mod="${escapeXml(r.mod ?? '')}" begin="${r.begin ?? -1}" end="${r.end ?? -1}">`,
      `<name>${escapeXml(r.name)}</name>`,
      `<mangled_name>${escapeXml(r.name)}</mangled_name>`,
      `<paradigm>${r.paradigm ?? 'user'}</paradigm>`,
      `<role>${r.role ?? 'function'}</role>`,
      '<url></url>',
      '<descr></descr>',
      '</region>',
    );
  }
  const writeCnode = (node: CnodeSpec) => {
    out.push(`<cnode id="${ids.get(node)}"${node.line ? ` line="${node.line}"` : ''} calleeId="${node.region}">`);
    for (const [k, v] of node.params ?? [])
      out.push(`<parameter partype="string" parkey="${escapeXml(k)}" parvalue="${escapeXml(v)}"/>`);
    for (const c of node.children ?? []) writeCnode(c);
    out.push('</cnode>');
  };
  for (const root of spec.cnodes) writeCnode(root);
  out.push('</program>', '<system>');
  let location = 0;
  if (spec.version?.startsWith('3')) {
    out.push('<machine Id="0">', '<name>test machine</name>', '<node Id="0">', '<name>node0</name>');
    spec.processes.forEach((p, k) => {
      out.push(`<process Id="${k}">`, `<name>Process ${p.rank}</name>`, `<rank>${p.rank}</rank>`);
      for (const t of p.threads)
        out.push(`<thread Id="${location++}">`, `<name>Thread ${t}</name>`, `<rank>${t}</rank>`, '</thread>');
      out.push('</process>');
    });
    out.push('</node>', '</machine>');
  } else {
    out.push(
      '<systemtreenode Id="0">',
      '<name>machine Linux</name>',
      '<class>machine</class>',
      '<systemtreenode Id="1">',
      '<name>node</name>',
      '<class>node</class>',
    );
    spec.processes.forEach((p, k) => {
      out.push(
        `<locationgroup Id="${k}">`,
        `<name>MPI Rank ${p.rank}</name>`,
        `<rank>${p.rank}</rank>`,
        '<type>process</type>',
      );
      for (const t of p.threads)
        out.push(
          `<location Id="${location++}">`,
          `<name>thread ${t}</name>`,
          `<rank>${t}</rank>`,
          `<type>${p.locationType ?? 'thread'}</type>`,
          '</location>',
        );
      out.push('</locationgroup>');
    });
    out.push('</systemtreenode>', '</systemtreenode>');
  }
  out.push('</system>');
  if (severity) out.push(severity);
  out.push('</cube>', '');
  return out.join('\n');
}

/** A CUBE3 document: the anchor with every metric's values inline (exclusive along the call tree). */
export function cube3Document(spec: CubeSpec): string {
  const sev: string[] = ['<severity>'];
  for (const m of spec.metrics) {
    if (!m.values) continue;
    sev.push(`<matrix metricId="${m.id}">`);
    for (const [cnode, row] of Object.entries(m.values))
      sev.push(`<row cnodeId="${cnode}">`, ...row.map(v => String(v)), '</row>');
    sev.push('</matrix>');
  }
  sev.push('</severity>');
  return anchorXml({ ...spec, version: spec.version ?? '3.0' }, sev.join('\n'));
}

interface ValueWriter {
  size: number;
  write(v: DataView, o: number, x: number, le: boolean): void;
}

const VALUE_WRITERS: Record<string, ValueWriter> = {
  DOUBLE: { size: 8, write: (v, o, x, le) => v.setFloat64(o, x, le) },
  MINDOUBLE: { size: 8, write: (v, o, x, le) => v.setFloat64(o, x, le) },
  MAXDOUBLE: { size: 8, write: (v, o, x, le) => v.setFloat64(o, x, le) },
  UINT64: { size: 8, write: (v, o, x, le) => v.setBigUint64(o, BigInt(x), le) },
  INT64: { size: 8, write: (v, o, x, le) => v.setBigInt64(o, BigInt(x), le) },
  UINT32: { size: 4, write: (v, o, x, le) => v.setUint32(o, x, le) },
  INT32: { size: 4, write: (v, o, x, le) => v.setInt32(o, x, le) },
  INT16: { size: 2, write: (v, o, x, le) => v.setInt16(o, x, le) },
  UINT8: { size: 1, write: (v, o, x) => v.setUint8(o, x) },
};

function u64(x: number, le: boolean): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(x), le);
  return b;
}

/** The `.index` and `.data` files of one metric. */
export function metricFiles(spec: CubeSpec, m: MetricSpec): { index: Uint8Array; data: Uint8Array } {
  const le = !m.bigEndian;
  const locations = spec.processes.reduce((n, p) => n + p.threads.length, 0);
  const idOf = new Map(preOrder(spec).map(({ node, id }) => [node, id]));
  const order = m.type === 'INCLUSIVE' ? wideOrder(spec) : preOrder(spec).map(x => x.node);
  const positions = order
    .map((node, p) => ({ p, row: m.values?.[idOf.get(node)!] }))
    .filter(x => m.index === 'dense' || x.row !== undefined);
  const writer = VALUE_WRITERS[m.dtype];
  if (!writer) throw new Error(`test writer: no encoder for ${m.dtype}`);

  const header = new Uint8Array(18);
  header.set(Buffer.from('CUBEX.INDEX'));
  const hv = new DataView(header.buffer);
  hv.setUint32(11, 1, le);
  hv.setUint16(15, 0, le);
  header[17] = m.index === 'dense' ? 3 : 1;
  let index: Uint8Array = header;
  if (m.index !== 'dense') {
    index = new Uint8Array(22 + 4 * positions.length);
    index.set(header);
    const iv = new DataView(index.buffer);
    iv.setUint32(18, positions.length, le);
    positions.forEach((x, k) => iv.setUint32(22 + 4 * k, x.p, le));
  }

  const rowBytes = locations * writer.size;
  const rows = positions.map(({ row }) => {
    const bytes = new Uint8Array(rowBytes);
    const dv = new DataView(bytes.buffer);
    (row ?? []).forEach((x, c) => writer.write(dv, c * writer.size, x, le));
    return bytes;
  });
  if (!m.compressed) return { index, data: Buffer.concat([Buffer.from('CUBEX.DATA'), ...rows]) };
  // ZCUBEX.DATA: row headers (uncompressed offset, compressed offset, size), then one zlib stream per row.
  const segments: Uint8Array[] = [];
  const headers: Uint8Array[] = [];
  let at = 0;
  rows.forEach((row, r) => {
    const empty = row.every(b => b === 0);
    const z = empty ? new Uint8Array(0) : deflateSync(row);
    headers.push(u64(r * rowBytes, le), u64(empty ? 0 : at, le), u64(z.length, le));
    segments.push(z);
    at += z.length;
  });
  return { index, data: Buffer.concat([Buffer.from('ZCUBEX.DATA'), u64(rows.length, le), ...headers, ...segments]) };
}

export interface TarOptions {
  /** How names longer than 100 bytes are stored (default GNU `L` entries). */
  longNames?: 'gnu' | 'pax';
  /** Computes the stored checksum from the correct one (to imitate broken writers). */
  checksum?: (correct: number) => number;
  /** Leave out the end-of-archive marker. */
  noEndMarker?: boolean;
}

function tarHeader(name: string, size: number, type: string, options: TarOptions): Uint8Array {
  const h = new Uint8Array(512);
  const put = (s: string, at: number, len: number) => h.set(Buffer.from(s).subarray(0, len), at);
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(1700000000, 12), 136, 12);
  put(type, 156, 1);
  put('ustar\x0000', 257, 8);
  put('hpc', 265, 32);
  put('users', 297, 32);
  put('        ', 148, 8);
  const correct = h.reduce((s, b) => s + b, 0);
  put(octal(options.checksum ? options.checksum(correct) : correct, 7).slice(0, 6) + '\0 ', 148, 8);
  return h;
}

/** A tar archive of the given files. */
export function tarArchive(files: { name: string; data: Uint8Array }[], options: TarOptions = {}): Buffer {
  const parts: Uint8Array[] = [];
  const pad = (n: number) => new Uint8Array((512 - (n % 512)) % 512);
  const entry = (name: string, data: Uint8Array, type: string) => {
    parts.push(tarHeader(name, data.length, type, options), data, pad(data.length));
  };
  for (const f of files) {
    if (Buffer.byteLength(f.name) > 100) {
      if (options.longNames === 'pax') {
        const body = (len: number) => `${len} path=${f.name}\n`;
        let len = Buffer.byteLength(body(0));
        while (Buffer.byteLength(body(len)) !== len) len = Buffer.byteLength(body(len));
        entry('PaxHeader', Buffer.from(body(len)), 'x');
      } else {
        entry('././@LongLink', Buffer.from(f.name + '\0'), 'L');
      }
    }
    entry(f.name, f.data, '0');
  }
  if (!options.noEndMarker) parts.push(new Uint8Array(1024));
  return Buffer.concat(parts);
}

/** The files of a `.cubex` archive for the spec, in the order Score-P writes them. */
export function cubexFiles(spec: CubeSpec): { name: string; data: Uint8Array }[] {
  const files: { name: string; data: Uint8Array }[] = [];
  for (const m of spec.metrics) {
    if (!m.values) continue;
    const { index, data } = metricFiles(spec, m);
    files.push({ name: `${m.id}.data`, data }, { name: `${m.id}.index`, data: index });
  }
  files.push({ name: 'anchor.xml', data: Buffer.from(anchorXml(spec)) });
  return files;
}

export function cubexArchive(spec: CubeSpec, options: TarOptions = {}): Buffer {
  return tarArchive(cubexFiles(spec), options);
}
