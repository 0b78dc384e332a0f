/**
 * MemAxes sample files: CSV with a header row, columns found by name (MemAxes `DataObject::parseCSVFile`).
 *
 * - MemAxes example data: `variable,source,line,time,iter,latency,dataSource,cpu,node,index,map3D,xidx,yidx,zidx`;
 *   `time` and `dataSource` are hexadecimal, `dataSource` is the Intel PEBS load-latency code.
 * - Mitos (`mitosprocess`): `source,line,instruction,bytes,ip,variable,buffer_size,dims,xidx,yidx,zidx,pid,tid,time,addr,cpu,latency,data_src`;
 *   everything decimal, `data_src` the raw Linux `perf_mem_data_src` union, `??` for unknown values.
 *
 * Every other column becomes an attribute: numeric when its first value is a number, else a category.
 */
import { Buffer } from 'node:buffer';
import { asFastBuffer, cachedString, CACHE_MAX_LEN, HEX, latin1, utf8, type FastBuffer } from '../io/byte-strings';
import { readChunks } from '../io/file-input';
import { contentHead, ProfileReadError, withoutBom, type FileSample, type ReadOptions } from '../reader';
import { decodePerfDataSource, pebsLevel, pebsRemote } from '../../memory/model/data-source';
import { GrowableFloat64 } from '../../model/growable';
import {
  compactColumn,
  ColumnBuilder,
  CoreColumnsBuilder,
  UNKNOWN_SOURCE,
  type MemorySampleDialect,
  type MemorySamples,
  type SampleAttribute,
} from '../../memory/model/memory-samples';

/** Columns whose values are names or ids without order (MemAxes §4.1: the processor is qualitative). */
const QUALITATIVE = new Set(['cpu', 'node', 'datasource', 'data_src', 'ip', 'addr', 'pid', 'tid', 'map3d', 'line']);
/** Columns MemAxes and Mitos write, for recognising a header. */
const KNOWN = new Set([
  'variable',
  'source',
  'line',
  'time',
  'iter',
  'latency',
  'datasource',
  'data_src',
  'cpu',
  'node',
  'index',
  'map3d',
  'xidx',
  'yidx',
  'zidx',
  'instruction',
  'bytes',
  'ip',
  'buffer_size',
  'dims',
  'pid',
  'tid',
  'addr',
]);

/** The header's column names, lower-cased, or null when the head is not a MemAxes/Mitos CSV header. */
function headerColumns(head: string): string[] | null {
  const first = head.split('\n', 1)[0]!.replace(/\r$/, '');
  if (!first.includes(',')) return null;
  const names = splitCsvRow(first).map(n => n.trim().toLowerCase());
  const known = names.filter(n => KNOWN.has(n)).length;
  const anchor = names.includes('latency') || names.includes('datasource') || names.includes('data_src');
  return anchor && known >= 3 ? names : null;
}

/**
 * Confidence that a file is a MemAxes or Mitos sample CSV: a header naming latency or a data
 * source among at least three MemAxes/Mitos columns. A file missing a required column still
 * sniffs, so that reading it names the missing column.
 */
export function sniffMemaxesCsv(sample: FileSample): number {
  if (sample.isDirectory || sample.binary) return 0;
  return headerColumns(contentHead(sample)) ? 0.9 : 0;
}

/** A row's fields; double-quoted fields may hold commas and `""`. */
export function splitCsvRow(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/** A hexadecimal number (an optional `0x` allowed), or NaN when `s` is not one. */
export function parseHex(s: string): number {
  const b = Buffer.from(s, 'latin1') as FastBuffer;
  return cellHex(b, 0, b.length);
}

/** A decimal number, or NaN for an empty or non-numeric cell (`??`). `0x` numbers are read too. */
function parseNumber(s: string): number {
  if (s.length === 0 || s === '??') return NaN;
  const v = Number(s);
  return v === v || s.trim() === '' ? v : NaN;
}

const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const SPACE = 0x20;
const TAB = 0x09;

function trimStart(buf: FastBuffer, start: number, end: number): number {
  while (start < end && (buf[start] === SPACE || buf[start] === TAB)) start++;
  return start;
}

function trimEnd(buf: FastBuffer, start: number, end: number): number {
  while (end > start && (buf[end - 1] === SPACE || buf[end - 1] === TAB)) end--;
  return end;
}

function isBlank(buf: FastBuffer, start: number, end: number): boolean {
  return trimStart(buf, start, end) === end;
}

/** An empty cell or `??`: "unknown", as MemAxes and Mitos write it. */
function isUnknownCell(buf: FastBuffer, start: number, end: number): boolean {
  const s = trimStart(buf, start, end),
    e = trimEnd(buf, s, end);
  return e === s || (e - s === 2 && buf[s] === 0x3f && buf[s + 1] === 0x3f);
}

/** A decimal cell: plain integers straight from the bytes, anything else through `Number`; NaN when no number. */
function cellNumber(buf: FastBuffer, start: number, end: number): number {
  const s = trimStart(buf, start, end),
    e = trimEnd(buf, s, end);
  let i = s;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  // Up to 15 digits the running value is exact; longer numbers and decimals go through Number.
  if (i === e || e - i > 15) return parseNumber(latin1(buf, s, e));
  let v = 0;
  for (; i < e; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) return parseNumber(latin1(buf, s, e));
    v = v * 10 + d;
  }
  return negative ? -v : v;
}

/** A hexadecimal cell (an optional `0x` allowed); NaN when it is not one. */
function cellHex(buf: FastBuffer, start: number, end: number): number {
  let s = trimStart(buf, start, end);
  const e = trimEnd(buf, s, end);
  if (e - s > 2 && buf[s] === 0x30 && (buf[s + 1]! | 0x20) === 0x78) s += 2;
  if (s === e) return NaN;
  let v = 0;
  for (let i = s; i < e; i++) {
    const d = HEX[buf[i]!]!;
    if (d < 0) return NaN;
    v = v * 16 + d;
  }
  return v;
}

/** A text cell, trimmed; short ones decoded through the shared byte-keyed cache. */
function cellString(buf: FastBuffer, start: number, end: number): string {
  const s = trimStart(buf, start, end),
    e = trimEnd(buf, s, end);
  if (e === s) return '';
  return e - s <= CACHE_MAX_LEN ? cachedString(buf, s, e) : utf8(buf, s, e);
}

/** What a column feeds. */
const enum Role {
  Latency,
  Cpu,
  DataSource,
  Node,
  Line,
  Source,
  Variable,
  Number,
  Hex,
  Category,
  /** A generic column whose kind is decided by its first value. */
  Undecided,
}

interface Column {
  name: string;
  role: Role;
  builder: ColumnBuilder | null;
}

/**
 * Reads a MemAxes or Mitos sample CSV, streamed line by line. Missing `latency`, `cpu` or
 * data-source columns, rows with the wrong number of fields and non-numeric latencies are errors
 * naming the file (and line); a data source that is not a number makes the sample unresolved and
 * is counted in a warning, and a missing CPU id makes it unplaced.
 */
export async function readMemaxesCsv(path: string, options: ReadOptions = {}): Promise<MemorySamples> {
  const fail = (reason: string): never => {
    throw new ProfileReadError(path, reason);
  };
  // (`as`: the closures below assign it, which control-flow narrowing cannot see)
  let columns = null as Column[] | null;
  let dialect: MemorySampleDialect = 'memaxes';
  const core = new CoreColumnsBuilder();
  const { latency, cpu, level, remote, node, line, source, variable, sourceIds, variableIds } = core;
  const dataSource = new GrowableFloat64(4096);
  let badDataSource = 0;
  let firstBadDataSource = '';
  let missingCpu = 0;
  let count = 0;

  const onHeader = (text: string) => {
    const names = splitCsvRow(withoutBom(text)).map(n => n.trim());
    const lower = names.map(n => n.toLowerCase());
    // Mitos writes data_src (and ip, addr, instruction); MemAxes' example data dataSource.
    const mitos = lower.includes('data_src') || (!lower.includes('datasource') && lower.includes('addr'));
    dialect = mitos ? 'mitos' : 'memaxes';
    const dsName = dialect === 'memaxes' ? 'dataSource' : 'data_src';
    const missing = [
      ['latency', 'latency'],
      ['cpu', 'cpu'],
      [dsName.toLowerCase(), dsName],
    ]
      .filter(([key]) => !lower.includes(key!))
      .map(([, name]) => name!);
    if (missing.length)
      fail(
        `missing column${missing.length > 1 ? 's' : ''} ${missing.map(m => `"${m}"`).join(', ')} (a MemAxes sample file needs latency, cpu and ${dsName})`,
      );
    columns = names.map((name, k) => {
      const key = lower[k]!;
      const kind = QUALITATIVE.has(key) ? 'qualitative' : 'quantitative';
      switch (key) {
        case 'latency':
          return { name, role: Role.Latency, builder: null };
        case 'cpu':
          return { name, role: Role.Cpu, builder: null };
        case 'datasource':
        case 'data_src':
          return { name, role: Role.DataSource, builder: null };
        case 'node':
          return { name, role: Role.Node, builder: null };
        case 'line':
          return { name, role: Role.Line, builder: null };
        case 'source':
          return { name, role: Role.Source, builder: null };
        case 'variable':
          return { name, role: Role.Variable, builder: null };
        case 'time':
          return dialect === 'memaxes'
            ? { name, role: Role.Hex, builder: new ColumnBuilder(name, 'quantitative', false) }
            : { name, role: Role.Number, builder: new ColumnBuilder(name, 'quantitative', false) };
        case 'instruction':
          return { name, role: Role.Category, builder: new ColumnBuilder(name, 'qualitative', true) };
        default:
          return KNOWN.has(key)
            ? { name, role: Role.Number, builder: new ColumnBuilder(name, kind, false) }
            : { name, role: Role.Undecided, builder: null };
      }
    });
  };

  /** The text of a cell, for messages. */
  const cellText = (buf: FastBuffer, start: number, end: number) => utf8(buf, start, end).trim();

  const onCell = (col: Column, buf: FastBuffer, start: number, end: number, lineNo: number) => {
    switch (col.role) {
      case Role.Latency: {
        const lat = cellNumber(buf, start, end);
        if (!(lat >= 0)) fail(`line ${lineNo}: latency "${cellText(buf, start, end)}" is not a number of cycles`);
        latency.push(lat);
        break;
      }
      case Role.Cpu: {
        const c = cellNumber(buf, start, end);
        if (Number.isInteger(c) && c >= 0) cpu.push(c);
        else {
          cpu.push(-1);
          missingCpu++;
        }
        break;
      }
      case Role.DataSource: {
        const code = dialect === 'memaxes' ? cellHex(buf, start, end) : cellNumber(buf, start, end);
        dataSource.push(code);
        if (code !== code) {
          if (badDataSource++ === 0) firstBadDataSource = `line ${lineNo}: "${cellText(buf, start, end)}"`;
          level.push(0);
          remote.push(0);
        } else if (dialect === 'memaxes') {
          level.push(pebsLevel(code));
          remote.push(pebsRemote(code) ? 1 : 0);
        } else {
          const d = decodePerfDataSource(code);
          level.push(d.level);
          remote.push(d.remote ? 1 : 0);
        }
        break;
      }
      case Role.Node: {
        const v = cellNumber(buf, start, end);
        node.push(Number.isInteger(v) && v >= 0 ? v : -1);
        break;
      }
      case Role.Line: {
        const v = cellNumber(buf, start, end);
        line.push(Number.isInteger(v) && v > 0 ? v : 0);
        break;
      }
      case Role.Source:
        sourceIds.push(source.intern(cellString(buf, start, end) || UNKNOWN_SOURCE));
        break;
      case Role.Variable:
        variableIds.push(variable.intern(cellString(buf, start, end) || UNKNOWN_SOURCE));
        break;
      case Role.Number:
      case Role.Hex: {
        const v = col.role === Role.Hex ? cellHex(buf, start, end) : cellNumber(buf, start, end);
        // `??` and empty cells say "unknown" on purpose; anything else that is no number is worth a warning.
        if (v !== v && !isUnknownCell(buf, start, end)) col.builder!.missing++;
        col.builder!.push(v);
        break;
      }
      case Role.Category:
        col.builder!.pushCategory(cellString(buf, start, end));
        break;
      case Role.Undecided: {
        // A further column is numeric when its first value is (or is `??`), else a category.
        const numeric = isUnknownCell(buf, start, end) || cellNumber(buf, start, end) === cellNumber(buf, start, end);
        col.builder = new ColumnBuilder(col.name, numeric ? 'quantitative' : 'qualitative', !numeric);
        col.role = numeric ? Role.Number : Role.Category;
        onCell(col, buf, start, end, lineNo);
        break;
      }
    }
  };

  // Field bounds of the current row: [start, end) of field k at 2k, 2k + 1.
  let bounds = new Int32Array(64);
  const onRow = (buf: FastBuffer, start: number, end: number, lineNo: number) => {
    const cols = columns!;
    let fields = 0;
    let quoted = false;
    for (let s = start; ;) {
      let e = s;
      while (e < end) {
        const c = buf[e]!;
        if (c === COMMA) break;
        if (c === QUOTE) quoted = true;
        e++;
      }
      if (2 * fields + 2 > bounds.length) {
        const grown = new Int32Array(2 * bounds.length);
        grown.set(bounds);
        bounds = grown;
      }
      bounds[2 * fields] = s;
      bounds[2 * fields + 1] = e;
      fields++;
      if (e >= end) break;
      s = e + 1;
    }
    if (quoted) {
      // Rare: quoted fields. Unquote them into a buffer of their own and read that.
      const cells = splitCsvRow(utf8(buf, start, end));
      if (cells.length !== cols.length)
        fail(`line ${lineNo}: ${cells.length} fields where the header has ${cols.length}`);
      for (let k = 0; k < cols.length; k++) {
        const b = Buffer.from(cells[k]!, 'utf8') as FastBuffer;
        onCell(cols[k]!, b, 0, b.length, lineNo);
      }
    } else {
      if (fields !== cols.length) fail(`line ${lineNo}: ${fields} fields where the header has ${cols.length}`);
      for (let k = 0; k < fields; k++) onCell(cols[k]!, buf, bounds[2 * k]!, bounds[2 * k + 1]!, lineNo);
    }
    count++;
  };

  let lineNo = 0;
  const onLine = (buf: FastBuffer, start: number, end: number) => {
    lineNo++;
    if (end > start && buf[end - 1] === CR) end--;
    if (isBlank(buf, start, end)) return;
    if (columns === null) onHeader(utf8(buf, start, end));
    else onRow(buf, start, end, lineNo);
  };

  // Lines are cut straight from the chunks; a line split by a chunk boundary is joined in a carry.
  let carry: Buffer | null = null;
  for await (const chunk of readChunks(path, {
    signal: options.signal,
    onProgress: f => options.onProgress?.(f, 'reading samples'),
  })) {
    const buf = asFastBuffer(chunk);
    let pos = 0;
    if (carry) {
      const nl = buf.indexOf(LF);
      if (nl < 0) {
        carry = Buffer.concat([carry, buf]);
        continue;
      }
      const joined = asFastBuffer(Buffer.concat([carry, buf.subarray(0, nl)]));
      carry = null;
      onLine(joined, 0, joined.length);
      pos = nl + 1;
    }
    for (let nl = buf.indexOf(LF, pos); nl >= 0; nl = buf.indexOf(LF, pos)) {
      onLine(buf, pos, nl);
      pos = nl + 1;
    }
    if (pos < buf.length) carry = Buffer.from(buf.subarray(pos));
  }
  if (carry) onLine(asFastBuffer(carry), 0, carry.length);
  if (columns === null) return fail('the file is empty (no CSV header)');
  if (count === 0) fail('no samples after the header');

  const warnings: string[] = [];
  if (badDataSource) {
    const what = dialect === 'memaxes' ? 'hexadecimal number' : 'number';
    warnings.push(
      `${badDataSource} sample${badDataSource > 1 ? 's have' : ' has'} a data source that is not a ${what} (first at ${firstBadDataSource}); counted as unresolved`,
    );
  }
  if (missingCpu)
    warnings.push(`${missingCpu} sample${missingCpu > 1 ? 's have' : ' has'} no CPU id; they are unplaced`);

  const c = core.finish(count);
  const attributes: SampleAttribute[] = columns.map(col => {
    switch (col.role) {
      case Role.Latency:
        return { name: col.name, kind: 'quantitative', values: c.latency };
      case Role.Cpu:
        return { name: col.name, kind: 'qualitative', values: c.cpu };
      case Role.DataSource:
        return { name: col.name, kind: 'qualitative', values: compactColumn(dataSource.finish()) };
      case Role.Node:
        return { name: col.name, kind: 'qualitative', values: c.node };
      case Role.Line:
        return { name: col.name, kind: 'qualitative', values: c.line };
      case Role.Source:
        return { name: col.name, kind: 'qualitative', values: c.source.ids, categories: c.source.names };
      case Role.Variable:
        return { name: col.name, kind: 'qualitative', values: c.variable.ids, categories: c.variable.names };
      default: {
        const b = col.builder!;
        if (b.missing)
          warnings.push(
            `column "${col.name}": ${b.missing} cell${b.missing > 1 ? 's hold' : ' holds'} no ${col.role === Role.Hex ? 'hexadecimal ' : ''}number; left empty`,
          );
        return b.finish();
      }
    }
  });
  return { format: 'memaxes', dialect, path, ...c, attributes, warnings };
}
