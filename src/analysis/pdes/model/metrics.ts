/**
 * The engine metrics ROSS's instrumentation layer samples for PEs, KPs and LPs, under the names
 * ROSS's own binary readers use (`core/instrumentation/st-sim-engine.c`, data-sources §14), in the
 * order of each payload. Counters are deltas since the entity's previous sample; gauges are
 * states at the sample. Primary rollbacks are not stored by ROSS: they are derived as total −
 * secondary, as the ROSS-Vis server does (seed digest §1.3).
 */

/** PDES entity levels, outermost first: a PE holds KPs, a KP holds LPs. */
export type EntityLevel = 'pe' | 'kp' | 'lp';

export const ENTITY_LEVELS: readonly EntityLevel[] = ['pe', 'kp', 'lp'];

/** How a metric combines over time and over entities. */
export type MetricKind =
  /** A count or time since the previous sample: adds over samples and over entities. */
  | 'delta'
  /** A state at the sample (queue size, efficiency, clock difference): the last value stands. */
  | 'gauge';

export interface PdesMetric {
  /** ROSS's field name, e.g. `secondary_rollbacks`; stable, used in settings and JSON. */
  id: string;
  /** What views print, e.g. `Secondary rollbacks`. */
  label: string;
  /** Short axis label as ROSS-Vis prints it, e.g. `Sec. Rb.`. */
  shortLabel: string;
  /** `events`, `s` (seconds), `%`, `cycles`, `virtual time`. */
  unit: string;
  kind: MetricKind;
}

function metric(id: string, label: string, shortLabel: string, unit: string, kind: MetricKind = 'delta'): PdesMetric {
  return { id, label, shortLabel, unit, kind };
}

const EVENTS_PROCESSED = metric('events_processed', 'Events processed', 'Ev. Proc.', 'events');
const EVENTS_ABORTED = metric('events_aborted', 'Events aborted', 'Ev. Abort.', 'events');
const EVENTS_ROLLED_BACK = metric('events_rolled_back', 'Events rolled back', 'Ev. Rb.', 'events');
const TOTAL_ROLLBACKS = metric('total_rollbacks', 'Rollbacks', 'Rb.', 'rollbacks');
const SECONDARY_ROLLBACKS = metric('secondary_rollbacks', 'Secondary rollbacks', 'Sec. Rb.', 'rollbacks');
const PRIMARY_ROLLBACKS = metric('primary_rollbacks', 'Primary rollbacks', 'Prim. Rb.', 'rollbacks');
const NETWORK_SENDS = metric('network_sends', 'Network sends', 'Net. Send.', 'events');
const NETWORK_RECVS = metric('network_recvs', 'Network receives', 'Net. Recv.', 'events');
const EFFICIENCY = metric('efficiency', 'Efficiency', 'Eff.', '%', 'gauge');

/** Metric ids every consumer may rely on. */
export const METRIC = {
  eventsProcessed: EVENTS_PROCESSED.id,
  eventsAborted: EVENTS_ABORTED.id,
  eventsRolledBack: EVENTS_ROLLED_BACK.id,
  totalRollbacks: TOTAL_ROLLBACKS.id,
  secondaryRollbacks: SECONDARY_ROLLBACKS.id,
  primaryRollbacks: PRIMARY_ROLLBACKS.id,
  networkSends: NETWORK_SENDS.id,
  networkRecvs: NETWORK_RECVS.id,
  efficiency: EFFICIENCY.id,
  timeAheadGvt: 'time_ahead_gvt',
} as const;

/**
 * PE metrics: the 12 counters and 13 float32 fields of the PE payload after `peid` (the last 12
 * floats are seconds of wall-clock time, ROSS divides its cycle counters by the clock rate), then
 * the derived primary rollbacks.
 */
export const PE_METRICS: readonly PdesMetric[] = [
  EVENTS_PROCESSED,
  EVENTS_ABORTED,
  EVENTS_ROLLED_BACK,
  TOTAL_ROLLBACKS,
  SECONDARY_ROLLBACKS,
  metric('fossil_collect_attempts', 'Fossil-collection attempts', 'FC Att.', 'attempts'),
  metric('pq_size', 'Priority-queue size', 'PQ Size', 'events', 'gauge'),
  NETWORK_SENDS,
  NETWORK_RECVS,
  metric('num_gvts', 'GVT computations', 'Num GVT', 'GVTs'),
  metric('event_ties', 'Event ties', 'Ev. Ties', 'events'),
  metric('all_reduce_count', 'All-reduce calls', 'All-red.', 'calls'),
  EFFICIENCY,
  metric('net_read_time', 'Network read time', 'Net. Read T.', 's'),
  metric('net_other_time', 'Network other time', 'Net. Other T.', 's'),
  metric('gvt_time', 'GVT time', 'GVT T.', 's'),
  metric('fc_time', 'Fossil-collection time', 'FC T.', 's'),
  metric('event_abort_time', 'Event abort time', 'Abort T.', 's'),
  metric('event_process_time', 'Event processing time', 'Proc. T.', 's'),
  metric('pq_time', 'Priority-queue time', 'PQ T.', 's'),
  metric('rollback_time', 'Rollback time', 'Rb. T.', 's'),
  metric('cancel_q_time', 'Cancel-queue time', 'Cancel T.', 's'),
  metric('avl_time', 'AVL-tree time', 'AVL T.', 's'),
  metric('buddy_time', 'Buddy-allocator time', 'Buddy T.', 's'),
  metric('lz4_time', 'LZ4 compression time', 'LZ4 T.', 's'),
  PRIMARY_ROLLBACKS,
];

/** KP metrics: the 7 counters after `peid, kpid`, the two float32 gauges, then primary rollbacks. */
export const KP_METRICS: readonly PdesMetric[] = [
  EVENTS_PROCESSED,
  EVENTS_ABORTED,
  EVENTS_ROLLED_BACK,
  TOTAL_ROLLBACKS,
  SECONDARY_ROLLBACKS,
  NETWORK_SENDS,
  NETWORK_RECVS,
  metric('time_ahead_gvt', 'Virtual time ahead of GVT', 'VT − GVT', 'virtual time', 'gauge'),
  EFFICIENCY,
  PRIMARY_ROLLBACKS,
];

/** LP metrics: the 5 counters after `peid, kpid, lpid`, the u64 cycle count and efficiency. LPs hold no rollback counts (KPs roll back). */
export const LP_METRICS: readonly PdesMetric[] = [
  EVENTS_PROCESSED,
  EVENTS_ABORTED,
  EVENTS_ROLLED_BACK,
  NETWORK_SENDS,
  NETWORK_RECVS,
  metric('process_event_cycles', 'Event-processing cycles', 'Proc. Cyc.', 'cycles'),
  EFFICIENCY,
];

export const METRICS_BY_LEVEL: Readonly<Record<EntityLevel, readonly PdesMetric[]>> = {
  pe: PE_METRICS,
  kp: KP_METRICS,
  lp: LP_METRICS,
};

/** Index of a metric in a level's list, or -1 when the level does not sample it. */
export function metricIndex(level: EntityLevel, id: string): number {
  return METRICS_BY_LEVEL[level].findIndex(m => m.id === id);
}
