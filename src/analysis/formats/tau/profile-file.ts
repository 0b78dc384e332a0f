import { quoteContent } from '../../errors/escape-control';
import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import { forEachLine, readSmallFileLines, type InputOptions } from '../io/file-input';
import { ProfileReadError } from '../reader';
import { parseTauMetadata } from './tau-metadata';

/**
 * One TAU profile file, `profile.<node>.<context>.<thread>` (plain or gzip):
 *
 *   <n> templated_functions_MULTI_<METRIC>
 *   # Name Calls Subrs Excl Incl ProfileCalls # <metadata>…</metadata>
 *   "<timer>" <calls> <subrs> <excl> <incl> <profilecalls> GROUP="<groups>"     (n lines)
 *   <m> aggregates                                                               (+ m lines)
 *   <k> userevents                                                               (optional)
 *   # eventname numevents max min mean sumsqr
 *   "<event>" <numevents> <max> <min> <mean> <sumsqr>                            (k lines)
 *
 * Timer names may contain quotes: the name ends at the last quote before the numbers.
 */

/** Interns timer names across all files of a profile, so a name is parsed once however many files list it. */
export class TimerTable {
  private readonly ids = new Map<string, number>();
  readonly names: string[] = [];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  get size(): number {
    return this.names.length;
  }

  /** The timer ids of the file read last, in file order. */
  previousFile: Int32Array | null = null;
}

/** The number in `line[start, end)`; integers, what TAU mostly writes, without building a string. */
function parseNumber(line: string, start: number, end: number): number {
  let k = start;
  const negative = line.charCodeAt(k) === 45;
  if (negative) k++;
  const digits = k;
  if (end - digits <= 15) {
    let v = 0;
    for (; k < end; k++) {
      const d = line.charCodeAt(k) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (k === end && k > digits) return negative ? -v : v;
  }
  return Number(line.slice(start, end));
}

export interface TauUserEvent {
  name: string;
  count: number;
  max: number;
  min: number;
  mean: number;
  sumSquares: number;
}

export interface TauProfileFile {
  path: string;
  /** The metric as the file names it (`Metric Name` attribute, else `…_MULTI_<metric>`), or null. */
  metricName: string | null;
  /** Per timer line, in file order: the timer's id in the TimerTable and its values. */
  timers: Int32Array;
  calls: Float64Array;
  subrs: Float64Array;
  exclusive: Float64Array;
  inclusive: Float64Array;
  attributes: [string, string][];
  userEvents: TauUserEvent[];
  /** Negative times read as 0 (as ParaProf does). */
  negativeValues: number;
  /** The `<metadata>` block was not closed and was ignored. */
  badMetadata: boolean;
}

const HEADER = /^\s*(\d+)\s+templated_functions(\S*)/;
const COLUMNS = /^#\s*(.*?)\s*#/;
const AGGREGATES = /^\s*(\d+)\s+aggregates\b/;
const USER_EVENTS = /^\s*(\d+)\s+userevents\b/;
const REQUIRED_COLUMNS = ['Name', 'Calls', 'Subrs', 'Excl', 'Incl'];

const enum Section {
  Header,
  Columns,
  Timers,
  Aggregates,
  Aggregate,
  UserEvents,
  UserEventColumns,
  UserEvent,
  End,
}

function show(line: string): string {
  return quoteContent(line);
}

/** Reads one profile file; anything that is not the format above is a ProfileReadError naming the file and line. */
export async function readTauProfileFile(
  path: string,
  timers: TimerTable,
  options: InputOptions = {},
): Promise<TauProfileFile> {
  const ids = new GrowableInt32(256);
  const calls = new GrowableFloat64(256),
    subrs = new GrowableFloat64(256);
  const excl = new GrowableFloat64(256),
    incl = new GrowableFloat64(256);
  const out: Omit<TauProfileFile, 'timers' | 'calls' | 'subrs' | 'exclusive' | 'inclusive'> = {
    path,
    metricName: null,
    attributes: [],
    userEvents: [],
    negativeValues: 0,
    badMetadata: false,
  };
  let section: Section = Section.Header as Section;
  let expected = 0,
    done = 0,
    valueCount = 0;
  const values = new Float64Array(8);

  const fail = (lineNumber: number, reason: string): never => {
    throw new ProfileReadError(path, `line ${lineNumber}: ${reason}`);
  };

  /**
   * Splits `"name" v1 v2 …`: `count` finite numbers go to `values`, and the result is the index of the
   * quote that closes the name (the name itself is only sliced when needed).
   */
  const splitQuoted = (line: string, n: number, what: string, count: number, trailer: string | null): number => {
    if (line.charCodeAt(0) !== 34)
      fail(n, `expected a ${what} line ("name" followed by numbers) but found ${show(line)}`);
    let end = line.length;
    if (trailer !== null) {
      const g = line.lastIndexOf(trailer);
      if (g > 0) end = g;
    }
    const close = line.lastIndexOf('"', end - 1);
    if (close <= 0) fail(n, `the ${what} name has no closing quote`);
    let got = 0;
    let i = close + 1;
    while (i < end) {
      while (i < end && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
      if (i >= end) break;
      let j = i;
      while (j < end && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
      const v = parseNumber(line, i, j);
      if (!Number.isFinite(v))
        fail(n, `bad number ${show(line.slice(i, j))} in the values of ${what} ${show(line.slice(1, close))}`);
      if (got < count) values[got] = v;
      got++;
      i = j;
    }
    if (got !== count) fail(n, `${what} ${show(line.slice(1, close))} has ${got} values, expected ${count}`);
    return close;
  };
  // Files of one run list their timers in the same order: compare with the previous file's name at
  // this position before hashing the name (call-path names run to kilobytes).
  const hint = timers.previousFile;

  const onLine = (line: string, n: number): void => {
    switch (section) {
      case Section.Header: {
        const m = HEADER.exec(line);
        if (!m) fail(n, `not a TAU profile: expected "<n> templated_functions…", found ${show(line)}`);
        expected = Number(m![1]);
        const suffix = m![2]!;
        const multi = suffix.indexOf('_MULTI_');
        if (multi >= 0 && suffix.length > multi + 7) out.metricName = suffix.slice(multi + 7);
        section = Section.Columns;
        return;
      }
      case Section.Columns: {
        const m = COLUMNS.exec(line);
        const columns = m ? m[1]!.split(/\s+/) : [];
        if (REQUIRED_COLUMNS.some((c, k) => columns[k] !== c))
          fail(n, `expected the column line "# Name Calls Subrs Excl Incl …", found ${show(line)}`);
        valueCount = columns.length - 1;
        if (valueCount > values.length) fail(n, `${valueCount} value columns; TAU writes at most ${values.length}`);
        const attributes = parseTauMetadata(line);
        if (attributes === null) out.badMetadata = true;
        else {
          out.attributes = attributes;
          const metric = attributes.find(([k]) => k === 'Metric Name');
          if (metric && metric[1].trim()) out.metricName = metric[1].trim();
        }
        section = expected > 0 ? Section.Timers : Section.Aggregates;
        return;
      }
      case Section.Timers: {
        if (line.charCodeAt(0) !== 34 && AGGREGATES.test(line))
          fail(n, `the header announces ${expected} timers but only ${done} precede the aggregates line`);
        const close = splitQuoted(line, n, 'timer', valueCount, ' GROUP="');
        let e = values[2]!,
          i = values[3]!;
        if (e < 0 || i < 0) {
          out.negativeValues++;
          e = Math.max(0, e);
          i = Math.max(0, i);
        }
        if (values[0]! < 0 || values[1]! < 0)
          fail(n, `timer ${show(line.slice(1, close))} has a negative number of calls`);
        const name = line.slice(1, close);
        const guess = hint !== null && done < hint.length ? hint[done]! : -1;
        // (Comparing a slice is much faster in V8 than startsWith at an offset.)
        ids.push(guess >= 0 && timers.names[guess] === name ? guess : timers.id(name));
        calls.push(values[0]!);
        subrs.push(values[1]!);
        excl.push(e);
        incl.push(i);
        if (++done === expected) section = Section.Aggregates;
        return;
      }
      case Section.Aggregates: {
        const m = AGGREGATES.exec(line);
        if (!m)
          fail(
            n,
            line.charCodeAt(0) === 34
              ? `more timer lines than the ${expected} the header announces`
              : `expected "<m> aggregates" after the timers, found ${show(line)}`,
          );
        expected = Number(m![1]);
        done = 0;
        section = expected > 0 ? Section.Aggregate : Section.UserEvents;
        return;
      }
      case Section.Aggregate:
        if (++done === expected) section = Section.UserEvents;
        return;
      case Section.UserEvents: {
        if (line.trim() === '') return;
        const m = USER_EVENTS.exec(line);
        if (!m) fail(n, `expected "<k> userevents" or the end of the file, found ${show(line)}`);
        expected = Number(m![1]);
        done = 0;
        section = Section.UserEventColumns;
        return;
      }
      case Section.UserEventColumns:
        if (!line.startsWith('#'))
          fail(n, `expected the column line "# eventname numevents max min mean sumsqr", found ${show(line)}`);
        section = expected > 0 ? Section.UserEvent : Section.End;
        return;
      case Section.UserEvent: {
        const close = splitQuoted(line, n, 'user event', 5, null);
        out.userEvents.push({
          name: line.slice(1, close),
          count: values[0]!,
          max: values[1]!,
          min: values[2]!,
          mean: values[3]!,
          sumSquares: values[4]!,
        });
        if (++done === expected) section = Section.End;
        return;
      }
      case Section.End:
        if (line.trim() !== '') fail(n, `unexpected text after the last user event: ${show(line)}`);
        return;
    }
  };

  const lines = readSmallFileLines(path, options);
  if (lines) for (let k = 0; k < lines.length; k++) onLine(lines[k]!, k + 1);
  else await forEachLine(path, onLine, options);

  switch (section) {
    case Section.Header:
      throw new ProfileReadError(path, 'the file is empty');
    case Section.Columns:
      throw new ProfileReadError(
        path,
        'the file ends after line 1; the column line "# Name Calls Subrs Excl Incl …" is missing',
      );
    case Section.Timers:
      throw new ProfileReadError(
        path,
        `the file ends after ${done} of the ${expected} timer lines the header announces (truncated?)`,
      );
    case Section.Aggregates:
      throw new ProfileReadError(path, 'the file ends before the "<m> aggregates" line (truncated?)');
    case Section.Aggregate:
      throw new ProfileReadError(path, `the file ends after ${done} of ${expected} aggregate lines (truncated?)`);
    case Section.UserEventColumns:
    case Section.UserEvent:
      throw new ProfileReadError(
        path,
        `the file ends after ${done} of the ${expected} user events it announces (truncated?)`,
      );
    default:
      break;
  }
  const timerIds = ids.finish();
  timers.previousFile = timerIds;
  return {
    ...out,
    timers: timerIds,
    calls: calls.finish(),
    subrs: subrs.finish(),
    exclusive: excl.finish(),
    inclusive: incl.finish(),
  };
}
