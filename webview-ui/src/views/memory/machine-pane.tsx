/** @jsxRuntime automatic */
/**
 * The machine side of the Memory view: the hardware topology pane and the per-depth scores
 * (MemAxes §7.1): for each depth (PU, L1, L2, L3, NUMA) the mean cycles per access L_d, the
 * imbalance I_d = max |s − μ| / σ, the coefficient of variation, max/mean and Gini, with the
 * resource each names — a click on a resource selects the samples attributed to it.
 *
 * The topology drawing is the shared topology component (webview-ui/src/components/topology).
 * Facts: `.memory-topology[data-state]` (`drawn`, or `none` without a topology), the component's
 * own facts inside it, `.memory-depth-row[data-depth][data-imbalance]`.
 */
import type { MemoryDepthRow, MemoryPanelData } from '../../../../src/shared/memory-protocol';
import { MEMORY_DEPTH_LABELS } from '../../../../src/shared/memory-protocol';
import { Segmented } from '../../components/segmented';
import { TopologyView } from '../../components/topology';
import { formatCount } from '../../format';

export interface MachinePaneProps {
  data: MemoryPanelData;
  onSelectNode: (node: number, additive: boolean) => void;
}

/** A score as the table prints it (NaN: no resource has samples). */
function score(v: number, digits = 2): string {
  return Number.isFinite(v) ? v.toFixed(digits) : '–';
}

/** What the machine is coloured by: the focus's cycles or samples (node measures 0 and 1), per depth. */
export type MachineColour = 'cycles' | 'samples';

export interface TopologyPaneProps {
  data: MemoryPanelData;
  width: number;
  height: number;
  colour: MachineColour;
  onColour: (c: MachineColour) => void;
  onSelectNode: (node: number, additive: boolean) => void;
  /** The selected mark clicked again, or Escape: no selection. */
  onClear: () => void;
}

/**
 * The machine (MemAxes §6.2) drawn by the shared topology component: sunburst (icicle on the
 * toggle) of machine → NUMA → L3 → L2 → L1 → PU, colour = the focus's cycles or samples normalised
 * per depth (YlOrRd), link width ∝ transactions, tooltip samples / cycles / cycles per access; a
 * click selects the resource's samples (shift-click adds).
 */
export function TopologyPane({ data, width, height, colour, onColour, onSelectNode, onClear }: TopologyPaneProps) {
  if (!data.topology || !data.machineView)
    return (
      <section className="memory-topology memory-pane-note" data-state="none" aria-label="Hardware topology">
        <h3>No hardware topology</h3>
        <p>
          These samples came without a topology (a <code>hardware.xml</code>, hwloc XML or <code>lscpu -p</code> beside
          them). The code, variable and histogram views work without one; the machine view and the per-depth scores need
          it.
        </p>
      </section>
    );
  return (
    <section className="memory-topology" data-state="drawn" aria-label="Hardware topology">
      <TopologyView
        data={data.machineView}
        width={width}
        height={height}
        colourMeasure={colour === 'cycles' ? 0 : 1}
        normalise="depth"
        title={
          <Segmented<MachineColour>
            label="Colour"
            value={colour}
            choices={[
              ['cycles', 'Cycles'],
              ['samples', 'Samples'],
            ]}
            onChange={onColour}
          />
        }
        onSelect={(ids, node) => {
          // The component reports the marks now selected: a shift-click adds its mark, a click on the
          // only selected mark (or Escape) leaves none.
          if (!node || !ids.includes(node.id)) onClear();
          else if (node.index >= 0) onSelectNode(node.index, ids.length > 1);
        }}
        ariaLabel={`The machine: ${data.selected ? 'the selection' : 'the visible samples'} by ${colour} per resource`}
      />
    </section>
  );
}

function ResourceButton({
  which,
  r,
  data,
  onSelectNode,
}: {
  which: string;
  r: MemoryDepthRow['extreme'];
  data: MemoryPanelData;
  onSelectNode: MachinePaneProps['onSelectNode'];
}) {
  if (!r) return <span className="memory-muted">–</span>;
  const load = data.selection ?? data.total;
  const samples = load?.samples.node[r.node] ?? 0;
  const cycles = load?.cycles.node[r.node] ?? 0;
  return (
    <button
      className="memory-resource"
      data-resource={r.node}
      data-resource-role={which}
      title={`${r.label}: ${formatCount(samples)} samples, ${formatCount(cycles)} cycles${samples > 0 ? `, ${Math.round(cycles / samples)} cycles/access` : ''}. Click selects its samples, shift-click adds them.`}
      onClick={e => onSelectNode(r.node, e.shiftKey)}
    >
      {r.label} <span className="memory-muted">({formatCount(samples)})</span>
    </button>
  );
}

export function DepthTable({ data, onSelectNode }: MachinePaneProps) {
  if (!data.depths.length) return null;
  return (
    <table className="memory-depths">
      <caption>
        Scores per depth over {data.selected ? 'the selection' : 'the visible samples'} (sample counts per resource)
      </caption>
      <thead>
        <tr>
          <th scope="col">depth</th>
          <th scope="col" title="Resources at this depth">
            n
          </th>
          <th scope="col" title="L_d: mean cycles per access over the resources with samples">
            cyc/access
          </th>
          <th scope="col" title="I_d = max |s − μ| / σ of the samples per resource (0 when σ = 0)">
            I
          </th>
          <th scope="col" title="Coefficient of variation σ / μ">
            CV
          </th>
          <th scope="col" title="Largest over mean">
            max/mean
          </th>
          <th scope="col" title="Gini coefficient of the samples per resource">
            Gini
          </th>
          <th scope="col" title="The resource farthest from the mean">
            extreme
          </th>
          <th scope="col" title="The resource with the fewest samples">
            idlest
          </th>
        </tr>
      </thead>
      <tbody>
        {data.depths.map(d => (
          <tr key={d.depth} className="memory-depth-row" data-depth={d.depth} data-imbalance={d.imbalance}>
            <th scope="row">{MEMORY_DEPTH_LABELS[d.depth]}</th>
            <td>{d.resources}</td>
            <td>{score(d.latency, 0)}</td>
            <td>{score(d.imbalance)}</td>
            <td>{score(d.cv)}</td>
            <td>{score(d.maxOverMean)}</td>
            <td>{score(d.gini)}</td>
            <td>
              <ResourceButton which="extreme" r={d.extreme} data={data} onSelectNode={onSelectNode} />
            </td>
            <td>
              <ResourceButton which="idlest" r={d.idlest} data={data} onSelectNode={onSelectNode} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
