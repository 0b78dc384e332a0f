import { readProfile } from '../../analysis/formats';
import { analyzeTrace } from '../../analysis/timeseries/analyze-trace';
import {
  DEFAULT_TRACE_ANALYSIS_OPTIONS,
  TraceAnalysisError,
  type TraceAnalysisOptions,
} from '../../analysis/timeseries/model/options';
import { analyzeTraceReport, analyzeTraceText } from '../../analysis/timeseries/report';
import { parseArgs, UsageError, type Verb } from '../verb';

export const analyzeTraceVerb: Verb = {
  usage: `usage: hpc-lens analyze-trace [--json] [--cfg FILE] [--set NAME=VALUE,…] PATH

Analyses a trace (HPCToolkit trace.db, OTF2, Chrome/Kineto, Nsight Systems): iterations of loops,
clusters of ranks and threads that behave alike, imbalance and waiting on call paths, and the
inefficient segments with a diagnosis and a projected saving (Wei & Mellor-Crummey, ICS '18).
  --json     print one JSON object: samplingPeriod, threads, runTime, clusters, loops,
             significant, segments (times in seconds)
  --cfg FILE a control-flow file ordering call sites inside routines and loops (format in
             src/analysis/timeseries/control-flow.ts); default: source order
  --set      analysis options (the hpcLens.traceAnalysis.* settings), e.g.
             --set childNumAcc=1,samplingPeriod=0.005; lists as JSON: --set 'syncNames=["MPI_Barrier"]'
Options: ${Object.keys(DEFAULT_TRACE_ANALYSIS_OPTIONS).join(', ')}`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['cfg', 'set'] });
    if (positional.length !== 1) throw new UsageError('analyze-trace reads exactly one PATH');
    const options: Partial<TraceAnalysisOptions> = parseSettings(String(flags.get('set') ?? ''));
    if (flags.has('cfg')) options.cfgFile = String(flags.get('cfg'));
    const profile = await readProfile(positional[0]!);
    try {
      const analysis = await analyzeTrace(profile, options);
      io.out(
        flags.has('json')
          ? JSON.stringify(analyzeTraceReport(analysis)) + '\n'
          : analyzeTraceText(analysis, positional[0]!),
      );
      return 0;
    } catch (e) {
      if (!(e instanceof TraceAnalysisError)) throw e;
      io.err(`hpc-lens analyze-trace: ${positional[0]}: ${e.message}\n`);
      return 1;
    }
  },
};

/** `name=value,name=value`: values are JSON when they parse as JSON, else strings; names must be options. */
export function parseSettings(text: string): Partial<TraceAnalysisOptions> {
  const out: Record<string, unknown> = {};
  if (!text.trim()) return out;
  // Commas inside a JSON list do not separate settings.
  const parts: string[] = [];
  let depth = 0,
    from = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if ((ch === ',' && depth === 0) || i === text.length) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects NAME=VALUE, found "${part}"`);
    const name = part.slice(0, eq).trim();
    if (!(name in DEFAULT_TRACE_ANALYSIS_OPTIONS))
      throw new UsageError(
        `--set: unknown option ${name} (known: ${Object.keys(DEFAULT_TRACE_ANALYSIS_OPTIONS).join(', ')})`,
      );
    const raw = part.slice(eq + 1).trim();
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A bare word is a string value (dummyMode=flat).
    }
    out[name] = value;
  }
  return out as Partial<TraceAnalysisOptions>;
}
