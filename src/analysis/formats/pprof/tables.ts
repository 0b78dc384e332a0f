import type { Profile as PprofProfile } from 'pprof-format';

type Numeric = number | bigint;

/** A decoded profile whose references do not check out; the reader turns it into a ProfileReadError. */
export class PprofDataError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'PprofDataError';
  }
}

/** pprof-format gives varints of more than 4 bytes as bigint; ids and int64 values become numbers. */
export function num(v: Numeric): number {
  return typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : v;
}

/** A line number as the model stores it: int32, 0 for unknown (and for nonsense such as negatives). */
function lineOf(v: Numeric): number {
  const n = num(v);
  return n > 0 && n <= 0x7fffffff ? n : 0;
}

/** String `v` of the string table; `what` names the reference in the error when it is out of range. */
export function stringAt(strings: readonly string[], v: Numeric, what: string): string {
  const i = num(v);
  const s = strings[i];
  if (s === undefined)
    throw new PprofDataError(`${what} refers to string ${i}, but the string table has ${strings.length} entries`);
  return s;
}

/**
 * The decoded profile's functions and locations as flat, validated tables: every string index is in
 * the string table, every referenced id exists. A location's frames are stored leaf-first like the
 * file has them (inlined callee first, the function it was inlined into last); a location without
 * lines (not symbolized) gets one frame of its own pseudo-function, named by its address.
 */
export interface PprofTables {
  strings: string[];
  /** Per function (file order, then one pseudo-function per unsymbolized location): name, file, first line. */
  functionName: string[];
  functionFile: (string | null)[];
  functionLine: Int32Array;
  /** Location id → location index. */
  locationIndex: Map<number, number>;
  /** Frames of location k are frameStart[k] .. frameStart[k+1]-1, leaf first. */
  frameStart: Int32Array;
  frameFunction: Int32Array;
  frameLine: Int32Array;
  /** Per location: the file of its mapping (load module), or null. */
  locationModule: (string | null)[];
}

export function buildTables(p: PprofProfile): PprofTables {
  const strings = p.stringTable.strings;
  if (strings.length && strings[0] !== '')
    throw new PprofDataError(`the string table must start with the empty string, not "${strings[0]!.slice(0, 40)}"`);
  const str = (v: Numeric, what: string) => stringAt(strings, v, what);

  const mappingFile = new Map<number, string | null>();
  for (const m of p.mapping) {
    const id = num(m.id);
    if (id === 0) throw new PprofDataError('a mapping has id 0 (ids must be nonzero)');
    if (mappingFile.has(id)) throw new PprofDataError(`mapping id ${id} is defined twice`);
    str(m.buildId, `mapping ${id}'s build id`);
    mappingFile.set(id, str(m.filename, `mapping ${id}'s file name`) || null);
  }

  const functionIndex = new Map<number, number>();
  const functionName: string[] = [];
  const functionFile: (string | null)[] = [];
  const lines: number[] = [];
  for (const f of p.function) {
    const id = num(f.id);
    if (id === 0) throw new PprofDataError('a function has id 0 (ids must be nonzero)');
    if (functionIndex.has(id)) throw new PprofDataError(`function id ${id} is defined twice`);
    functionIndex.set(id, functionName.length);
    const name = str(f.name, `function ${id}'s name`);
    const system = str(f.systemName, `function ${id}'s system name`);
    functionName.push(name || system || `<function ${id}>`);
    functionFile.push(str(f.filename, `function ${id}'s file name`) || null);
    lines.push(lineOf(f.startLine));
  }

  const L = p.location.length;
  const locationIndex = new Map<number, number>();
  const frameStart = new Int32Array(L + 1);
  const frameFunction: number[] = [];
  const frameLine: number[] = [];
  const locationModule: (string | null)[] = [];
  for (let k = 0; k < L; k++) {
    const loc = p.location[k]!;
    const id = num(loc.id);
    if (id === 0) throw new PprofDataError('a location has id 0 (ids must be nonzero)');
    if (locationIndex.has(id)) throw new PprofDataError(`location id ${id} is defined twice`);
    locationIndex.set(id, k);
    const mapping = num(loc.mappingId);
    const module = mapping === 0 ? null : mappingFile.get(mapping);
    if (module === undefined)
      throw new PprofDataError(`location ${id} refers to mapping ${mapping}, which does not exist`);
    locationModule.push(module);
    frameStart[k] = frameFunction.length;
    if (loc.line.length === 0) {
      frameFunction.push(functionName.length);
      frameLine.push(0);
      functionName.push(`0x${BigInt.asUintN(64, BigInt(loc.address)).toString(16)}`);
      functionFile.push(null);
      lines.push(0);
      continue;
    }
    for (const ln of loc.line) {
      const fid = num(ln.functionId);
      const f = functionIndex.get(fid);
      if (f === undefined) throw new PprofDataError(`location ${id} refers to function ${fid}, which does not exist`);
      frameFunction.push(f);
      frameLine.push(lineOf(ln.line));
    }
  }
  frameStart[L] = frameFunction.length;
  return {
    strings,
    functionName,
    functionFile,
    functionLine: Int32Array.from(lines),
    locationIndex,
    frameStart,
    frameFunction: Int32Array.from(frameFunction),
    frameLine: Int32Array.from(frameLine),
    locationModule,
  };
}
