/**
 * What a PDES run was configured with and what ROSS reported about it as a whole: the `ross.csv`
 * summary, the command line, the CODES config and ROSS's per-LP statistics (the LP→PE map).
 */

/**
 * `ross.csv`: ROSS's one-line run summary (`tw_stats`), a header and one row per run (ROSS appends a
 * row each time a run writes to the same folder; the last row is the latest run).
 */
export interface RossSummary {
  /** Column names, including the analysis-LP columns when the row carries them. */
  columns: string[];
  /** The latest row by column name: numbers, or text (`mapping`). */
  values: Record<string, number | string>;
  /** Rows in the file (runs that wrote to it). */
  rows: number;
  totalPe: number;
  totalKp: number;
  totalLp: number;
  eventsProcessed: number;
  eventsRolledBack: number;
  rollbacks: number;
  primaryRollbacks: number;
  secondaryRollbacks: number;
  /** ROSS's efficiency, percent (may be negative: more rolled-back than committed work). */
  efficiency: number;
  /** `linear`, `round robin` or `model defined`. */
  mapping: string;
}

/** `ross_all_lp_stats/pe_N.txt`: per LP of PE N, its processing time and events processed. */
export interface LpStats {
  /** Global LP ids. */
  lp: Int32Array;
  /** The PE each LP ran on (N of its file): ROSS's LP→PE map. */
  pe: Int32Array;
  /** Seconds spent processing the LP's events. */
  processingTime: Float64Array;
  eventsProcessed: Float64Array;
}

/** A ROSS command line as `command.txt` (or the first line of `run.log`) records it. */
export interface RossCommandLine {
  /** The model executable, e.g. `model-net-synthetic-dragonfly-all` or `phold`. */
  program: string;
  /** `--option=value` arguments, e.g. `{ synch: '3', 'vt-interval': '10000' }` (`'true'` for bare flags). */
  options: Record<string, string>;
  /** Other arguments after the program (a CODES model's config file). */
  args: string[];
  /** MPI ranks (PEs) the launcher started (`mpirun -np 4`), when it says. */
  ranks?: number;
}

/**
 * A CODES configuration file (`codes/src/modelconfig`): nested sections `NAME { … }` holding
 * `key="value";` and `key=( "a", "b" );` entries, `#` comments. `LPGROUPS` lays out the LPs
 * (groups of repeated LP types) and `PARAMS` configures the network model.
 */
export interface CodesConfigSection {
  name: string;
  entries: Map<string, string | string[]>;
  sections: CodesConfigSection[];
}

export interface CodesConfig {
  root: CodesConfigSection;
  /** The LP layout from `LPGROUPS`. */
  lpGroups: CodesLpGroup[];
  /** `PARAMS` entries (empty when absent). */
  params: Map<string, string | string[]>;
}

export interface CodesLpGroup {
  name: string;
  repetitions: number;
  /** LP types of one repetition, in layout order, with how many LPs of each. */
  types: { name: string; count: number }[];
}
