import { readFileSync } from 'node:fs';
import { readProfile } from '../../analysis/formats';
import { ProfileReadError } from '../../analysis/formats/reader';
import { CATEGORY_LABELS, compileCategoryRules, DMV_CLASSES } from '../../analysis/dmv/categories';
import { DmvIndex } from '../../analysis/dmv/dmv-index';
import { dataMovementReport, type DataMovementReport } from '../../analysis/dmv/report';
import { formatBytes, formatSeconds } from '../../analysis/stats/format';
import { parseArgs, UsageError, type Verb } from '../verb';

export const dataMovementVerb: Verb = {
  usage: `usage: hpc-lens data-movement [--json] [--rules FILE] PATH

Reads a trace with GPU activity (Kineto/PyTorch profiler JSON, Nsight Systems SQLite) and prints
DMV's summary: busy time per class, the 12-sector clock, the host/GPU communication matrix and the
data-movement flags (pageable copies, alternating transfers, small-copy storms, copies without
overlap, unified-memory fault storms).
  --json        print one JSON object, seconds and bytes throughout:
                { "range": {"start", "end"},
                  "categories": {"dataMovement", "gpuCompute", "runtime", "cpuCompute"},
                  "clock": {"sectorSeconds", "sectors": [{"bytes", "dataMovement", "gpuCompute",
                            "runtime", "cpuCompute"}]},
                  "matrix": [{"src", "dst", "count", "bytes"}],
                  "flags": [{"kind", "file", "line", "count"}] }
  --rules FILE  category rules as JSON (the setting hpcLens.dmv.categoryRules), e.g.
                [{"cat": "NVTX", "category": "cpuCompute"}, {"name": "/^nccl/", "category": "dataMovement"}]`,
  async run(args, io) {
    const { flags, positional } = parseArgs(args, { boolean: ['json'], valued: ['rules'] });
    if (positional.length !== 1) throw new UsageError('data-movement reads exactly one PATH');
    let rules: unknown;
    const rulesPath = flags.get('rules');
    if (typeof rulesPath === 'string') {
      try {
        rules = JSON.parse(readFileSync(rulesPath, 'utf8'));
      } catch (e) {
        throw new ProfileReadError(rulesPath, `not a JSON array of category rules (${(e as Error).message})`);
      }
      const compiled = compileCategoryRules(rules);
      if (compiled.errors.length) throw new ProfileReadError(rulesPath, compiled.errors.join('; '));
      rules = compiled;
    }
    const profile = await readProfile(positional[0]!);
    if (!profile.trace)
      throw new ProfileReadError(profile.path, `a ${profile.format} profile has no timeline of events`);
    const report = dataMovementReport(new DmvIndex(profile, { rules }));
    io.out(flags.has('json') ? JSON.stringify(report) + '\n' : textReport(profile.path, report));
    return 0;
  },
};

function textReport(path: string, r: DataMovementReport): string {
  const s = (x: number) => formatSeconds(x);
  const keys = ['dataMovement', 'gpuCompute', 'runtime', 'cpuCompute'] as const;
  const lines = [path, `  range     ${s(r.range.start)} – ${s(r.range.end)} (${s(r.range.end - r.range.start)})`];
  lines.push(
    `  busy      ${DMV_CLASSES.map((c, k) => `${CATEGORY_LABELS[c]} ${s(r.categories[keys[k]!])}`).join(' · ')}`,
  );
  lines.push('', `Clock (12 sectors of ${s(r.clock.sectorSeconds)}):`);
  r.clock.sectors.forEach((x, k) =>
    lines.push(
      `  ${String(k).padStart(2)}  ${formatBytes(x.bytes).padStart(9)}  ${keys.map(key => s(x[key]).padStart(10)).join(' ')}`,
    ),
  );
  lines.push('', 'Copies (source → destination):');
  for (const c of r.matrix) if (c.count) lines.push(`  ${c.src} → ${c.dst}: ${c.count}× ${formatBytes(c.bytes)}`);
  lines.push('', r.flags.length ? 'Flags:' : 'No flags.');
  for (const f of r.flags)
    lines.push(`  ${f.kind.padEnd(22)} ${f.count}×  ${f.file ?? '(no line)'}${f.line ? `:${f.line}` : ''}`);
  return lines.join('\n') + '\n';
}
