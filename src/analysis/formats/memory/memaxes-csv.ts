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
import { forEachLine } from '../io/file-input';
import { contentHead, ProfileReadError, withoutBom, type FileSample, type ReadOptions } from '../reader';
import { decodePerfDataSource, pebsLevel, pebsRemote } from '../../memory/data-source';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import {
  CategoryInterner,
  compactColumn,
  ColumnBuilder,
  UNKNOWN_SOURCE,
  type MemorySampleDialect,
  type MemorySamples,
  type SampleAttribute,
} from '../../memory/memory-samples';

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

const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX_DIGIT[48 + c] = c;
for (let c = 0; c < 6; c++) HEX_DIGIT[65 + c] = HEX_DIGIT[97 + c] = 10 + c;

/** A hexadecimal number (an optional `0x` allowed), or NaN when `s` is not one. */
export function parseHex(s: string): number {
  let i = 0;
  let end = s.length;
  while (i < end && s.charCodeAt(i) === 32) i++;
  while (end > i && s.charCodeAt(end - 1) === 32) end--;
  if (end - i > 2 && s.charCodeAt(i) === 48 && (s.charCodeAt(i + 1) | 32) === 120) i += 2;
  if (i === end) return NaN;
  let v = 0;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? HEX_DIGIT[c]! : -1;
    if (d < 0) return NaN;
    v = v * 16 + d;
  }
  return v;
}

/** A decimal number, or NaN for an empty or non-numeric cell (`??`). `0x` numbers are read too. */
function parseNumber(s: string): number {
  if (s.length === 0 || s === '??') return NaN;
  const v = Number(s);
  return v === v || s.trim() === '' ? v : NaN;
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
  const latency = new GrowableFloat64(4096);
  const cpu = new GrowableInt32(4096);
  const level = new GrowableUint8(4096);
  const remote = new GrowableUint8(4096);
  const node = new GrowableInt32(4096);
  const line = new GrowableInt32(4096);
  const dataSource = new GrowableFloat64(4096);
  const source = new CategoryInterner();
  const variable = new CategoryInterner();
  const sourceIds = new GrowableInt32(4096);
  const variableIds = new GrowableInt32(4096);
  let hasSource = false;
  let hasVariable = false;
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
          hasSource = true;
          return { name, role: Role.Source, builder: null };
        case 'variable':
          hasVariable = true;
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

  const onRow = (text: string, lineNo: number) => {
    const cols = columns!;
    const fields = splitCsvRow(text);
    if (fields.length !== cols.length)
      fail(`line ${lineNo}: ${fields.length} fields where the header has ${cols.length}`);
    for (let k = 0; k < cols.length; k++) {
      const col = cols[k]!;
      const f = fields[k]!;
      switch (col.role) {
        case Role.Latency: {
          const lat = parseNumber(f);
          if (!(lat >= 0)) fail(`line ${lineNo}: latency "${f}" is not a number of cycles`);
          latency.push(lat);
          break;
        }
        case Role.Cpu: {
          const c = parseNumber(f);
          if (Number.isInteger(c) && c >= 0) cpu.push(c);
          else {
            cpu.push(-1);
            missingCpu++;
          }
          break;
        }
        case Role.DataSource: {
          const code = dialect === 'memaxes' ? parseHex(f) : parseNumber(f);
          dataSource.push(code);
          if (code !== code) {
            if (badDataSource++ === 0) firstBadDataSource = `line ${lineNo}: "${f}"`;
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
          const v = parseNumber(f);
          node.push(Number.isInteger(v) && v >= 0 ? v : -1);
          break;
        }
        case Role.Line: {
          const v = parseNumber(f);
          line.push(Number.isInteger(v) && v > 0 ? v : 0);
          break;
        }
        case Role.Source:
          sourceIds.push(source.intern(f.trim() || UNKNOWN_SOURCE));
          break;
        case Role.Variable:
          variableIds.push(variable.intern(f.trim() || UNKNOWN_SOURCE));
          break;
        case Role.Number:
        case Role.Hex: {
          const v = col.role === Role.Hex ? parseHex(f) : parseNumber(f);
          // `??` and empty cells say "unknown" on purpose; anything else that is no number is worth a warning.
          if (v !== v && f !== '??' && f.trim() !== '') col.builder!.missing++;
          col.builder!.push(v);
          break;
        }
        case Role.Category:
          col.builder!.pushCategory(f.trim());
          break;
        case Role.Undecided: {
          const numeric = f === '??' || parseNumber(f) === parseNumber(f);
          col.builder = new ColumnBuilder(col.name, numeric ? 'quantitative' : 'qualitative', !numeric);
          col.role = numeric ? Role.Number : Role.Category;
          k--; // read the cell again in its decided role
          break;
        }
      }
    }
    count++;
  };

  await forEachLine(
    path,
    (text, lineNo) => {
      if (columns === null) {
        if (text.trim()) onHeader(text);
        return;
      }
      if (text.length === 0 || !text.trim()) return;
      onRow(text, lineNo);
    },
    { signal: options.signal, onProgress: f => options.onProgress?.(f, 'reading samples') },
  );
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

  const cpuValues = cpu.finish();
  const latencyValues = latency.finish();
  const lineValues = hasRole(columns, Role.Line) ? line.finish() : new Int32Array(count);
  const nodeValues = hasRole(columns, Role.Node) ? node.finish() : new Int32Array(count).fill(-1);
  const sourceColumn = hasSource
    ? { ids: sourceIds.finish(), names: source.names }
    : { ids: new Int32Array(count), names: [UNKNOWN_SOURCE] };
  const variableColumn = hasVariable
    ? { ids: variableIds.finish(), names: variable.names }
    : { ids: new Int32Array(count), names: [UNKNOWN_SOURCE] };
  const attributes: SampleAttribute[] = columns.map(col => {
    switch (col.role) {
      case Role.Latency:
        return { name: col.name, kind: 'quantitative', values: latencyValues };
      case Role.Cpu:
        return { name: col.name, kind: 'qualitative', values: cpuValues };
      case Role.DataSource:
        return { name: col.name, kind: 'qualitative', values: compactColumn(dataSource.finish()) };
      case Role.Node:
        return { name: col.name, kind: 'qualitative', values: nodeValues };
      case Role.Line:
        return { name: col.name, kind: 'qualitative', values: lineValues };
      case Role.Source:
        return { name: col.name, kind: 'qualitative', values: sourceColumn.ids, categories: sourceColumn.names };
      case Role.Variable:
        return { name: col.name, kind: 'qualitative', values: variableColumn.ids, categories: variableColumn.names };
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
  return {
    format: 'memaxes',
    dialect,
    path,
    count,
    latency: latencyValues,
    cpu: cpuValues,
    level: level.finish(),
    remote: remote.finish(),
    node: nodeValues,
    source: sourceColumn,
    line: lineValues,
    variable: variableColumn,
    attributes,
    warnings,
  };
}

function hasRole(columns: Column[], role: Role): boolean {
  return columns.some(c => c.role === role);
}
