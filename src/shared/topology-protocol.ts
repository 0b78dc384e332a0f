/**
 * What a topology view draws: the level-of-detail data the host computes with `topologyViewData`
 * (src/analysis/topology/topology-view-data.ts) from a {@link Topology} and its values, and the
 * shared drawing component (webview-ui/src/components/topology/) receives, and the events the
 * component reports ({@link TopologyViewEvent}: hover, select, drill-down). A panel (PDES dragonfly,
 * memory sunburst, DMV hardware view) embeds {@link TopologyViewData} in its own host → view messages
 * and a {@link TopologyViewEvent} in its own view → host messages; the host keeps a
 * {@link TopologyDrillDown} per view, folds events into it with {@link applyDrillDown}, and passes it
 * to `topologyViewData` as `expand` / `collapse`.
 *
 * Ids are strings, stable across requests of the same topology: `n<i>` is topology node i, `a<i>:<kind>`
 * is the aggregate of node i's descendants of that kind when node i is collapsed (e.g. `a3:router`:
 * the routers of group 3), and a link's id names its drawn ends and kind (`n4~n9:G`).
 */
import type { Topology, TopologyNodeKind } from '../analysis/topology/topology';
import { assertNever } from './webview-protocol';

/**
 * How a topology is drawn. Trees: `sunburst` (radial, MemAxes §6.2) or `icicle` (the same partition
 * in rows). Networks: `dragonfly` (groups around a circle, routers inside them, global links as
 * chords). Host–GPU: `graph` (boxes and links, DMV's hardware view).
 */
export type TopologyLayout = 'sunburst' | 'icicle' | 'dragonfly' | 'graph';

/**
 * Sequential colour schemes for values (low → high). `YlOrRd` is MemAxes' ramp (light yellow → red);
 * `Reds` DMV's white → red utilisation; `Blues` and `Viridis` for anything else.
 */
export type TopologyColourScheme = 'YlOrRd' | 'Reds' | 'Blues' | 'Viridis';

/**
 * How a colour or width scale spans its values: `depth` — separately per level of the hierarchy
 * (PU, L1, … NUMA; router, group; MemAxes normalises per depth because L1 latencies are tens of
 * cycles and NUMA latencies thousands), `all` — one range over every drawn node (or link).
 */
export type TopologyNormalise = 'depth' | 'all';

/** The smallest and largest finite value of a measure over some drawn nodes or links. */
export interface TopologyRange {
  min: number;
  max: number;
}

/** A quantity on the nodes or links, e.g. cycles (node), transactions (link), traffic (link). */
export interface TopologyViewMeasure {
  name: string;
  /** `cycles`, `count`, `B`, `bytes`, `ns`, `%` … (formatValue understands them). */
  unit: string;
  /**
   * How aggregates combine their members: a collapsed group's routers, merged links. Node measures
   * default to `mean` (so an aggregate is comparable with single nodes at its level), link measures to
   * `sum` (the traffic of a bundle is the sum of its links').
   */
  aggregate: 'sum' | 'mean' | 'max';
  /** Range per level (node kind for nodes; {@link TopologyViewLink.level} for links) over drawn items; absent when no finite value. */
  byLevel: Record<string, TopologyRange>;
  /** Range over every drawn item but the root(s); null when no finite value. */
  all: TopologyRange | null;
}

/** One mark: a topology node, or an aggregate standing for several. */
export interface TopologyViewNode {
  /** `n<i>` or `a<i>:<kind>` (see the module comment). */
  id: string;
  /** The topology node index; -1 for an aggregate. */
  index: number;
  /** The node's kind; an aggregate has its members' kind. */
  kind: TopologyNodeKind;
  /** `NUMA 1`, `router 17`, `GPU 0`; an aggregate: `32 routers`. */
  label: string;
  /** A shorter label for tight spaces: `17`, `G3`, `N1`; the view abbreviates to it before hiding a label. */
  short: string;
  /** A second line where there is room (e.g. the GPU's name); optional. */
  detail?: string;
  /** The drawn parent's id; null for a root. */
  parent: string | null;
  /** Depth in the drawn tree: 0 for roots. */
  depth: number;
  /** The system's own number (CPU id, router id, CUDA device); -1 when none or for aggregates. */
  osIndex: number;
  /** Per node measure (same order as {@link TopologyViewData.nodeMeasures}); NaN when unknown. Aggregates: combined as the measure says. */
  values: number[];
  /** Only on aggregates. */
  aggregate?: {
    /** Topology nodes it stands for. */
    count: number;
    /** Per node measure: sum and largest value over the members (NaN when none is known). */
    sums: number[];
    maxima: number[];
  };
  /** Links with both ends inside this mark (a collapsed group's local links), per link measure combined as the measure says; absent when none. */
  internal?: { count: number; values: number[] };
  /** Topology nodes hang below it that are not drawn one by one: a drill-down request can show them. */
  expandable: boolean;
  /** Its children are drawn because of an expand request (or the automatic level of detail): a collapse request folds them. */
  collapsible: boolean;
  /** How much room the mark asks for among its siblings: the topology leaves it stands for (aggregates count their members). */
  weight: number;
}

/** A drawn link: a topology link, a bundle of links between two aggregates, or a parent–child containment link. */
export interface TopologyViewLink {
  /** `<source>~<target>:<kind>`. */
  id: string;
  source: string;
  target: string;
  /** The topology link kind (`G`, `L`, `CN`, `NV2`, `SYS`, `host`, `cross-socket`), or `contains` for parent → child. */
  kind: string;
  /** What its scale is normalised over with `depth`: the child's kind for containment links, else the link kind. */
  level: string;
  /** Per link measure (same order as {@link TopologyViewData.linkMeasures}), combined over merged links as the measure says. */
  values: number[];
  /**
   * Per link measure, the two directions apart when links of both directions were merged into one
   * (source → target and target → source); absent when the link has one direction.
   */
  forward?: number[];
  backward?: number[];
  /** Topology links it stands for. */
  count: number;
}

/** The colour encoding of nodes (or links). */
export interface TopologyColourEncoding {
  /** Index into the node (link) measures; -1: no colour by value. */
  measure: number;
  normalise: TopologyNormalise;
  scheme: TopologyColourScheme;
  /** A fixed range instead of the data's (e.g. 0–100 for utilisation in %): then `normalise` is not used. */
  domain?: [number, number];
}

/** Everything a topology view draws. */
export interface TopologyViewData {
  shape: Topology['shape'];
  /** The layout the data was made for; trees may be switched between sunburst and icicle in the view. */
  layout: TopologyLayout;
  /** Where the topology came from (a file path or `synthetic`). */
  source: string;
  /** Parents before children. */
  nodes: TopologyViewNode[];
  links: TopologyViewLink[];
  nodeMeasures: TopologyViewMeasure[];
  linkMeasures: TopologyViewMeasure[];
  /** Node fill. */
  colour: TopologyColourEncoding;
  /** Link stroke colour by a link measure; measure -1: by link kind. */
  linkColour: TopologyColourEncoding;
  /** Link width ∝ this link measure (index; -1: all links one width), over the maximum of the link's level (`depth`) or of all links. */
  width: { measure: number; normalise: TopologyNormalise };
  /** Ids of the drawn marks that are (or contain) selected topology nodes. */
  selected: string[];
  /** Ids of the drawn marks that are (or contain) highlighted topology nodes (e.g. what another view points at). */
  highlighted: string[];
  /** Names of the levels, by node kind, as the legend prints them (`pu` → `PU`, `router` → `Router`). */
  levelLabels: Partial<Record<TopologyNodeKind, string>>;
  /** What the level of detail did, for the view's footnote and the tests. */
  detail: {
    /** Topology nodes and links. */
    topologyNodes: number;
    topologyLinks: number;
    /** Topology nodes folded into aggregates, and left out below the deepest drawn level. */
    aggregated: number;
    omitted: number;
    /** Links folded into a mark's {@link TopologyViewNode.internal} values. */
    internalLinks: number;
    /** The budget that was applied. */
    maxNodes: number;
    maxLinks: number;
  };
  /** Short sentences for the footnote (what was aggregated and why). */
  notes: string[];
}

/** `n12` → 12, `a3:router` → 3 (the collapsed node an aggregate stands under); -1 for anything else. */
export function topologyNodeOfId(id: string): number {
  const m = /^[na](\d+)(?::|$)/.exec(id);
  return m ? Number(m[1]) : -1;
}

/** Whether a mark id names an aggregate (`a<i>:<kind>`) rather than one topology node (`n<i>`). */
export function isAggregateId(id: string): boolean {
  return /^a\d+:/.test(id);
}

/**
 * What the topology component reports (its `onEvent` prop), for a panel to forward to its host.
 * Mark ids are {@link TopologyViewNode.id}s; `nodes` are the topology node indices they name
 * (an aggregate names the collapsed node it stands under, see {@link topologyNodeOfId}).
 */
export type TopologyViewEvent =
  /** The pointer or keyboard focus entered a mark or a link; both null when it left. */
  | { type: 'topology/hover'; mark: string | null; node: number; link: string | null }
  /** A click, Enter or Space changed the selection (empty: cleared). */
  | { type: 'topology/select'; marks: string[]; nodes: number[] }
  /** Double-click or `+` on an expandable mark: draw its children. */
  | { type: 'topology/expand'; mark: string }
  /** Double-click or `-` on an expanded mark: fold its children into aggregates again. */
  | { type: 'topology/collapse'; mark: string };

/** Every {@link TopologyViewEvent} type, for a panel's exhaustive message checks. */
export const TOPOLOGY_VIEW_EVENT_TYPES: Record<TopologyViewEvent['type'], true> = {
  'topology/hover': true,
  'topology/select': true,
  'topology/expand': true,
  'topology/collapse': true,
};

/** The drill-down state of one view: the `expand` / `collapse` options of the next `topologyViewData` call. */
export interface TopologyDrillDown {
  expand: string[];
  collapse: string[];
}

export const NO_DRILL_DOWN: TopologyDrillDown = { expand: [], collapse: [] };

/**
 * The drill-down state after an event: expanding a mark drops an earlier collapse of it and adds it
 * to `expand` (once); collapsing does the reverse. Hover and select leave it as it is (same object).
 */
export function applyDrillDown(state: TopologyDrillDown, event: TopologyViewEvent): TopologyDrillDown {
  switch (event.type) {
    case 'topology/expand':
      return {
        expand: state.expand.includes(event.mark) ? state.expand : [...state.expand, event.mark],
        collapse: state.collapse.filter(id => id !== event.mark),
      };
    case 'topology/collapse':
      return {
        expand: state.expand.filter(id => id !== event.mark),
        collapse: state.collapse.includes(event.mark) ? state.collapse : [...state.collapse, event.mark],
      };
    case 'topology/hover':
    case 'topology/select':
      return state;
    default:
      return assertNever(event, 'topology view event');
  }
}
