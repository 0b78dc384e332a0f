/**
 * The topology component: ONE drawing of the three topologies (PDES dragonfly network, MemAxes
 * machine tree, DMV host–GPU links), shared by the PDES, memory and DMV panels. Import from here.
 *
 * ## Host side (extension / service)
 * - `topologyViewData(topology, options)` (src/analysis/topology/topology-view-data.ts) turns a
 *   `Topology` and its values into {@link TopologyViewData}: level-of-detail marks (at most
 *   `maxNodes`, deeper levels folded into aggregates `a<i>:<kind>`), merged links, per-level scale
 *   ranges. Options: `nodeMeasures`, `linkMeasures`, `colour` / `linkColour` / `width` encodings
 *   (`domain: [0, 100]` for utilisation in %), `selected` / `highlighted` (topology node indices),
 *   `maxNodes` (pass the view's reported capacity), `omitKinds` (e.g. `['terminal']`),
 *   `expand` / `collapse` (the drill-down state), `containmentLinks`, `detail`, `levelLabels`.
 * - Put the result in your own protocol message (`src/shared/<view>-protocol.ts`).
 * - Drill-down: keep a `TopologyDrillDown` per view (start with `NO_DRILL_DOWN`), fold each
 *   forwarded event in with `applyDrillDown(state, event)` and call `topologyViewData` again with
 *   `{ ...options, ...state }`. Map mark ids to topology nodes with `topologyNodeOfId(id)`.
 *
 * ## View side: `<TopologyView data={…} />`
 * Required: `data`. Optional props:
 * - `width`, `height` (px; without both it fills its container and follows its size);
 * - `layout` / `onLayoutChange` (trees get a Sunburst | Icicle toggle when uncontrolled);
 * - `colourMeasure` (index into `data.nodeMeasures`, -1 none), `normalise` (`depth` | `all`);
 * - `selected`, `highlighted` (mark ids; controlled), `onSelect(ids, node)`;
 * - `onExpand(id)`, `onCollapse(id)` (double-click, `+` / `-`), `onHover(target | null)`;
 * - `onEvent(event)`: the same as {@link TopologyViewEvent}s (`topology/hover`, `topology/select`,
 *   `topology/expand`, `topology/collapse`) — forward them to the host unchanged;
 * - `tooltip(target, data)` (default: measures with units), `onCapacityChange(capacity)` (leaf marks
 *   the size holds: send it back as `maxNodes`), `title`, `legend={false}`, `compact` (a glyph: no
 *   toolbar, legend, footnote, labels), `ariaLabel`.
 * Layouts: `sunburst` / `icicle` (machine tree, MemAxes §6.2), `dragonfly` (groups around a circle,
 * routers inside, global links as chords), `graph` (host, switches, GPUs as boxes; NVLink / PCIe /
 * SYS links by kind). Colours come from `--vscode-*` variables (topology.css); labels are placed only
 * where their whole box fits their mark, so they never overlap.
 *
 * ## Tests
 * The view writes facts on `.topology-view` (`data-topology-layout`, `data-nodes-drawn`,
 * `data-links-drawn`, `data-labels-drawn`, `data-hidden`, `data-aggregates`, `data-selected`,
 * `data-highlighted`, `data-capacity`), on marks (`data-node`, `data-kind`, `data-selected`,
 * `data-geom`), links (`data-link`, `data-link-kind`) and labels (`data-label-of`, `data-box`).
 * Read them with `topologyDrawn(query)` (src/shared/test-facts.ts); click marks through the test
 * agent with the selector `[data-node="<id>"]` (double-click drills down).
 */
export {
  TopologyView,
  defaultTooltip,
  layoutTopology,
  topologyRegions,
  type TopologyHoverTarget,
  type TopologyViewProps,
} from './topology-view';
export type { TopologyLayoutResult } from './topology-layout';
export {
  applyDrillDown,
  isAggregateId,
  NO_DRILL_DOWN,
  topologyNodeOfId,
  type TopologyDrillDown,
  type TopologyLayout,
  type TopologyViewData,
  type TopologyViewEvent,
  type TopologyViewLink,
  type TopologyViewNode,
} from '../../../../src/shared/topology-protocol';
