import type { PdesEntities } from './entities';
import type { EventTrace } from './event-trace';
import type { LinkStats, ModelSamples, PacketTable, RouterHopTable, TerminalStats } from './network';
import type { LpPlacement } from './placement';
import type { CodesConfig, LpStats, RossCommandLine, RossSummary } from './run-config';
import type { SampleSet, SamplingMode } from './sample-set';

/** The format id of a ROSS/CODES output folder (as `hpc-lens inspect` reports it). */
export const ROSS_CODES_FORMAT = 'ross-codes';
export const ROSS_CODES_FORMAT_NAME = 'ROSS/CODES PDES run';

/** The files a run was read from (absent when the folder lacks them). */
export interface PdesRunFiles {
  /** The stats prefix (`--stats-prefix`), e.g. `dfdally72`. */
  statsPrefix?: string;
  gvt?: string;
  rt?: string;
  /** `*-analysis-lps.bin` (virtual-time sampling). */
  vt?: string;
  evtrace?: string;
  rossCsv?: string;
  command?: string;
  codesConfig?: string;
  lpStats: string[];
  packetLatency: string[];
  routerTiming: string[];
  linkStats?: string;
  terminalStats?: string;
}

/** Event-trace LPs that are no LP of the run (a trace from another run, or a corrupt record). */
export interface UnknownTraceLps {
  /** Events with an unknown sender or receiver; they are left out of every matrix. */
  events: number;
  /** Distinct unknown LP ids. */
  lps: number;
  /** A few of them, for the message. */
  examples: number[];
}

/**
 * One ROSS (or ROSS + CODES) run as HPC Lens holds it: entities PE ⊃ KP ⊃ LP, engine samples per
 * sampling mode, CODES model samples, the event trace, the network traces and the run's own
 * summary and configuration. Everything large is columnar; the sample sets and the trace are
 * appendable, so a live monitor grows the same structure tick by tick.
 */
export interface PdesRun {
  format: typeof ROSS_CODES_FORMAT;
  /** The folder (or single file) opened. */
  path: string;
  /** The folder's name, for titles. */
  name: string;
  files: PdesRunFiles;
  summary: RossSummary | null;
  command: RossCommandLine | null;
  codesConfig: CodesConfig | null;
  /** LP type per global LP id, from the CODES config's LPGROUPS (null without one). */
  lpTypes: { names: string[]; typeOfLp: Int32Array } | null;
  entities: PdesEntities;
  placement: LpPlacement;
  /** Engine samples by sampling mode (absent when the run has no such file). */
  samples: Partial<Record<SamplingMode, SampleSet>>;
  modelSamples: ModelSamples | null;
  eventTrace: EventTrace | null;
  unknownTraceLps: UnknownTraceLps | null;
  lpStats: LpStats | null;
  packets: PacketTable | null;
  routerHops: RouterHopTable | null;
  links: LinkStats | null;
  terminalStats: TerminalStats | null;
  /** Things the user should know (truncated files, merged repeats, missing maps), one sentence each. */
  warnings: string[];
}
