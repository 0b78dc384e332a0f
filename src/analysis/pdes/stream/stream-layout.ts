import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { discoverRunFiles, readRunLayout } from '../../formats/ross/pdes-run-reader';
import type { PdesEntities } from '../model/entities';
import type { PdesRun, PdesRunFiles } from '../model/pdes-run';
import { placeLps, type LpPlacement } from '../model/placement';
import type { SamplingMode } from '../model/sample-set';

/** What a live monitor knows about a run before its first sample. */
export interface StreamLayout {
  /** The run folder the layout came from (null when none was found). */
  folder: string | null;
  files: PdesRunFiles;
  /** Declared PEs and KPs in natural order, LPs placed on them (for the communication views). */
  entities: PdesEntities | null;
  placement: LpPlacement;
  /** What the run declares about itself (`ross.csv`, the command line, the CODES config and its LP types, `ross_all_lp_stats/`). */
  declared: Pick<PdesRun, 'summary' | 'command' | 'codesConfig' | 'lpTypes' | 'lpStats'>;
  /** PEs a tick waits for: ross.csv's total_pe, else the launcher's rank count, else 0 (those seen). */
  expectedPes: number;
  /** The sampling mode the stats file's name says (`*-gvt.bin`, `*-rt.bin`, `*-analysis-lps.bin`). */
  mode: SamplingMode | null;
  /** The event trace beside the stats file (same prefix), if any. */
  tracePath: string | null;
  warnings: string[];
}

const MODE_OF: Record<string, SamplingMode> = { gvt: 'gvt', rt: 'rt', 'analysis-lps': 'vt' };

/**
 * The layout of the run a stats file belongs to: its folder (the file's own, or the one above a
 * `--stats-path` folder such as `ross-stats/`) is searched for `ross.csv`, `command.txt`,
 * `ross_all_lp_stats/` and a CODES config, which give the PE count, the entities and the LP
 * placement. A live run may have none of them yet (ROSS writes `ross.csv` at the end): the layout
 * is then empty and the monitor learns the entities from the records.
 */
export async function readStreamLayout(statsFile: string): Promise<StreamLayout> {
  const name = basename(statsFile);
  const m = /^(.*)-(gvt|rt|analysis-lps|evtrace)\.bin$/.exec(name);
  const mode = m ? (MODE_OF[m[2]!] ?? null) : null;
  const sibling = m ? join(dirname(statsFile), `${m[1]}-evtrace.bin`) : null;
  const tracePath = sibling && sibling !== statsFile && existsSync(sibling) ? sibling : null;
  const warnings: string[] = [];
  const described = (dir: string) =>
    ['ross.csv', 'command.txt', 'ross_all_lp_stats'].some(f => existsSync(join(dir, f)));
  const here = dirname(statsFile);
  const folder = [here, dirname(here)].find(d => isDirectory(d) && described(d)) ?? null;
  if (!folder)
    return {
      folder: null,
      files: { lpStats: [], packetLatency: [], routerTiming: [] },
      entities: null,
      placement: { pe: 'none', kp: 'none' },
      declared: { summary: null, command: null, codesConfig: null, lpTypes: null, lpStats: null },
      expectedPes: 0,
      mode,
      tracePath,
      warnings,
    };
  const { files } = await discoverRunFiles(folder);
  const layout = await readRunLayout(files, warnings);
  const { summary, command, entities } = layout;
  const nkp = Number(command?.options.nkp);
  const kpsPerPe = layout.kpsPerPeDeclared || (nkp > 0 ? nkp : 0);
  const placement = placeLps(entities, {
    mapping: summary?.mapping,
    totalPe: summary?.totalPe ?? command?.ranks,
    totalLp: summary?.totalLp,
    kpsPerPe,
    lpStats: layout.lpStats,
    codes: layout.codesConfig !== null,
  });
  return {
    folder,
    files,
    entities,
    placement,
    declared: {
      summary,
      command,
      codesConfig: layout.codesConfig,
      lpTypes: layout.lpTypes,
      lpStats: layout.lpStats,
    },
    expectedPes: summary?.totalPe || command?.ranks || 0,
    mode,
    tracePath,
    warnings,
  };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
