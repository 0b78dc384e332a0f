import { readFile } from 'node:fs/promises';
import { ProfileReadError } from '../reader';
import type { LpStats, RossCommandLine, RossSummary } from '../../pdes/model/run-config';
import { numberField, requireColumns } from './text-table';

const REQUIRED = [
  'total_pe',
  'total_kp',
  'total_lp',
  'mapping',
  'events_processed',
  'events_rb',
  'eff',
  'rb_total',
  'rb_primary',
  'rb_secondary',
] as const;

/**
 * ROSS prints these 8 columns after `total_time` when analysis LPs are in use, but writes the header
 * only when it creates the file, before it knows that (ROSS 8.1.1 `tw_setup`): rows with exactly
 * these extra values get the names back.
 */
const ANALYSIS_LP_COLUMNS = [
  'model_nevent_proc',
  'model_nevent_rb',
  'model_net_events',
  'model_eff',
  'alp_nevent_proc',
  'alp_nevent_rb',
  'alp_net_events',
  'alp_eff',
];

const TEXT_COLUMNS = new Set(['mapping']);

export async function readRossCsv(path: string): Promise<RossSummary> {
  const text = await readFile(path, 'utf8');
  return parseRossCsv(path, text);
}

export function parseRossCsv(path: string, text: string): RossSummary {
  const lines = text.split(/\r?\n/).filter(l => l.trim() !== '');
  if (!lines.length) throw new ProfileReadError(path, 'the file is empty');
  const header = lines[0]!.replace(/^\uFEFF/, '').split(',');
  const col = requireColumns(path, header, REQUIRED);
  if (lines.length < 2) throw new ProfileReadError(path, 'the header has no data row');
  const lineNo = lines.length;
  const row = lines[lines.length - 1]!.split(',');
  const columns = header.slice();
  if (row.length === header.length + ANALYSIS_LP_COLUMNS.length && !header.includes(ANALYSIS_LP_COLUMNS[0]!))
    columns.push(...ANALYSIS_LP_COLUMNS);
  if (row.length < columns.length)
    throw new ProfileReadError(path, `line ${lineNo}: no value for column "${columns[row.length]}"`);
  if (row.length > columns.length)
    throw new ProfileReadError(
      path,
      `line ${lineNo} has ${row.length} values for ${columns.length} columns (the header ends at "${columns[columns.length - 1]}")`,
    );
  const values: Record<string, number | string> = {};
  columns.forEach((name, i) => {
    values[name] = TEXT_COLUMNS.has(name) ? row[i]!.trim() : numberField(path, row[i], lineNo, name);
  });
  const num = (k: (typeof REQUIRED)[number]) => values[header[col[k]]!] as number;
  return {
    columns,
    values,
    rows: lines.length - 1,
    totalPe: num('total_pe'),
    totalKp: num('total_kp'),
    totalLp: num('total_lp'),
    eventsProcessed: num('events_processed'),
    eventsRolledBack: num('events_rb'),
    rollbacks: num('rb_total'),
    primaryRollbacks: num('rb_primary'),
    secondaryRollbacks: num('rb_secondary'),
    efficiency: num('eff'),
    mapping: String(values.mapping),
  };
}

const LP_LINE = /^LPID:\s*(\d+)\s*-\s*Processing time:\s*(\S+)\s*-\s*Events processed:\s*(\S+)\s*$/;

/** Reads the `pe_N.txt` files (N from each file name) into one table, in file order. */
export async function readLpStats(files: readonly { path: string; pe: number }[]): Promise<LpStats> {
  const lp: number[] = [];
  const pe: number[] = [];
  const time: number[] = [];
  const events: number[] = [];
  for (const f of files) {
    const lines = (await readFile(f.path, 'utf8')).split(/\r?\n/);
    lines.forEach((line, i) => {
      if (!line.trim() || /^Time spent processing/.test(line)) return;
      const m = LP_LINE.exec(line);
      if (!m)
        throw new ProfileReadError(
          f.path,
          `line ${i + 1} is not "LPID: n - Processing time: t - Events processed: k" ("${line.slice(0, 60)}")`,
        );
      lp.push(Number(m[1]));
      pe.push(f.pe);
      time.push(numberField(f.path, m[2], i + 1, 'Processing time'));
      events.push(numberField(f.path, m[3], i + 1, 'Events processed'));
    });
  }
  return {
    lp: Int32Array.from(lp),
    pe: Int32Array.from(pe),
    processingTime: Float64Array.from(time),
    eventsProcessed: Float64Array.from(events),
  };
}

const LAUNCHERS = new Set(['mpirun', 'mpiexec', 'srun', 'aprun', 'jsrun']);

export function parseCommandLine(text: string): RossCommandLine {
  const tokens = (text.split(/\r?\n/).find(l => l.trim()) ?? '').trim().split(/\s+/);
  let i = 0;
  let ranks: number | undefined;
  // Skip the MPI launcher and its own options (`mpirun -np 4`), keeping the rank count.
  if (LAUNCHERS.has(tokens[0]?.split('/').pop() ?? '')) {
    i = 1;
    while (i < tokens.length && tokens[i]!.startsWith('-')) {
      const valued = /^-(np|n|N|c)$/.test(tokens[i]!);
      if (/^-(np|n)$/.test(tokens[i]!) && /^\d+$/.test(tokens[i + 1] ?? '')) ranks = Number(tokens[i + 1]);
      i += valued ? 2 : 1;
    }
  }
  const program = (tokens[i++] ?? '').split('/').pop() ?? '';
  const options: Record<string, string> = {};
  const args: string[] = [];
  for (; i < tokens.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(tokens[i]!);
    if (m) options[m[1]!] = m[2] ?? 'true';
    else if (tokens[i] !== '--' && tokens[i]) args.push(tokens[i]!);
  }
  return ranks === undefined ? { program, options, args } : { program, options, args, ranks };
}
