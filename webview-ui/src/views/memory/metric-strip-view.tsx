/** @jsxRuntime automatic */
/**
 * Metric strip and cluster markers (MemAxes §7.2–7.3): along a quantitative attribute, N windows
 * coloured by a score of a depth (YlOrRd, the strip's own range; grey when a window has no samples,
 * the peak outlined), and below it the clusters of the adjacency-constrained clustering of
 * overlapping windows (w = 1000, Δ = 600) cut at the chosen count. A click on a marker selects the
 * cluster's samples. Facts: `.memory-strip[data-attribute][data-windows][data-peak]`, `.memory-cluster[data-node]`.
 */
import { interpolateYlOrRd } from 'd3';
import type {
  MemoryClusterData,
  MemoryMetricSpec,
  MemoryPanelData,
  MemoryScore,
  MemoryStripData,
} from '../../../../src/shared/memory-protocol';
import {
  MEMORY_DEPTH_LABELS,
  MEMORY_DEPTHS,
  MEMORY_SCORE_LABELS,
  MEMORY_SCORES,
  memoryMetricLabel,
} from '../../../../src/shared/memory-protocol';
import type { MachineDepth } from '../../../../src/analysis/topology/machine';
import { formatCycles } from '../../../../src/analysis/stats/memory-format';
import { TopologyView } from '../../components/topology';
import { formatCount } from '../../format';
import { axisEndLabels, clusterSpan, formatAxisValue, stripCells } from './memory-layout';

export interface StripSettings {
  attribute: string;
  metric: MemoryMetricSpec;
  windows: number;
  clusters: number;
}

/** The attributes a strip runs along: quantitative ones with values. */
export function stripAttributes(data: MemoryPanelData): string[] {
  return data.histograms.filter(h => h.kind === 'quantitative' && h.min === h.min).map(h => h.attribute);
}

export interface MetricStripViewProps {
  data: MemoryPanelData;
  settings: StripSettings;
  strip: MemoryStripData | null;
  clusters: MemoryClusterData | null;
  width: number;
  onSettings: (s: StripSettings) => void;
  onSelectCluster: (node: number, additive: boolean) => void;
  /** The cluster marker under the pointer (its index), whose mini sunburst is shown; null: none. */
  hovered: number | null;
  onHoverCluster: (index: number | null) => void;
}

/** Size of a cluster's mini sunburst (MemAxes §7.3: the glyph shows where the cluster's load falls). */
const GLYPH = 150;

const STRIP_HEIGHT = 22;
const MARKER_HEIGHT = 16;

/** A cluster's load per NUMA node as text (the marker's tooltip; the mini sunburst needs the topology drawing). */
function clusterLoad(data: MemoryPanelData, c: MemoryClusterData['clusters'][number]): string {
  if (!data.topology || !c.samplesPerNode || !c.cycles) return '';
  const lines: string[] = [];
  data.topology.nodes.forEach((n, i) => {
    if (n.kind === 'numa')
      lines.push(`${n.label}: ${formatCount(c.samplesPerNode![i] ?? 0)} samples, ${formatCycles(c.cycles![i] ?? 0)}`);
  });
  return lines.length ? '\n' + lines.join('\n') : '';
}

export function MetricStripView({
  data,
  settings,
  strip,
  clusters,
  width,
  onSettings,
  onSelectCluster,
  hovered,
  onHoverCluster,
}: MetricStripViewProps) {
  const attributes = stripAttributes(data);
  const plot = Math.max(120, width - 8);
  const current = strip && strip.attribute === settings.attribute ? strip : null;
  const cells = current ? stripCells(current.windows, plot) : [];
  const currentClusters = clusters && clusters.attribute === settings.attribute ? clusters : null;
  const set = (patch: Partial<StripSettings>) => onSettings({ ...settings, ...patch });
  // The hovered marker's mini sunburst, below the strip, kept inside it.
  const hoveredCluster = hovered !== null && current ? currentClusters?.clusters[hovered] : undefined;
  const glyph =
    hoveredCluster?.machineView && current
      ? {
          cluster: hoveredCluster,
          left: Math.max(
            0,
            Math.min(
              plot - GLYPH - 8,
              (() => {
                const sp = clusterSpan(hoveredCluster, current.min, current.max, plot);
                return sp.x + sp.width / 2 - GLYPH / 2;
              })(),
            ),
          ),
        }
      : null;
  return (
    <div className="memory-strip-view">
      <div className="memory-strip-controls">
        <label>
          along{' '}
          <select
            className="memory-strip-attribute"
            value={settings.attribute}
            onChange={e => set({ attribute: e.target.value })}
          >
            {attributes.map(a => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          score{' '}
          <select
            className="memory-strip-score"
            value={settings.metric.score}
            onChange={e => set({ metric: { ...settings.metric, score: e.target.value as MemoryScore } })}
          >
            {MEMORY_SCORES.map(s => (
              <option key={s} value={s}>
                {MEMORY_SCORE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          at{' '}
          <select
            className="memory-strip-depth"
            value={settings.metric.depth}
            onChange={e => set({ metric: { ...settings.metric, depth: e.target.value as MachineDepth } })}
          >
            {MEMORY_DEPTHS.map(d => (
              <option key={d} value={d}>
                {MEMORY_DEPTH_LABELS[d]}
              </option>
            ))}
          </select>
        </label>
        <label>
          windows{' '}
          <input
            className="memory-strip-windows"
            type="number"
            min={2}
            max={400}
            value={settings.windows}
            onChange={e => {
              const n = Math.round(Number(e.target.value));
              if (n >= 2 && n <= 400) set({ windows: n });
            }}
          />
        </label>
        <label>
          clusters{' '}
          <input
            className="memory-strip-clusters"
            type="number"
            min={1}
            max={40}
            value={settings.clusters}
            onChange={e => {
              const n = Math.round(Number(e.target.value));
              if (n >= 1 && n <= 40) set({ clusters: n });
            }}
          />
        </label>
      </div>
      {!data.topology ? (
        <p className="memory-empty memory-strip-none">
          Metric strips and clusters score the machine's resources (imbalance, latency per depth): they need a topology
          beside the samples.
        </p>
      ) : !attributes.length ? (
        <p className="memory-empty">No quantitative attribute to run a strip along.</p>
      ) : !current ? (
        <p className="memory-empty">Computing the {memoryMetricLabel(settings.metric)} strip…</p>
      ) : (
        <div className="memory-strip-box">
          <svg
            className="memory-strip"
            width={plot}
            height={STRIP_HEIGHT + MARKER_HEIGHT + 18}
            data-attribute={current.attribute}
            data-windows={current.windows.length}
            data-peak={current.peak}
            role="img"
            aria-label={`${memoryMetricLabel(current.metric)} along ${current.attribute}`}
          >
            {cells.map((c, i) => {
              const w = current.windows[i]!;
              return (
                <rect
                  key={i}
                  className={
                    'memory-strip-cell' + (i === current.peak ? ' is-peak' : '') + (c.t === null ? ' is-empty' : '')
                  }
                  x={c.x}
                  y={0}
                  width={Math.max(0.5, c.width - 0.5)}
                  height={STRIP_HEIGHT}
                  fill={c.t === null ? undefined : interpolateYlOrRd(0.1 + 0.85 * c.t)}
                >
                  <title>{`${current.attribute} ${formatAxisValue(w.lo)} – ${formatAxisValue(w.hi)}: ${memoryMetricLabel(current.metric)} ${Number.isFinite(w.value) ? w.value.toFixed(2) : '–'} over ${w.samples} samples`}</title>
                </rect>
              );
            })}
            {currentClusters?.clusters.map((c, k) => {
              const s = clusterSpan(c, current.min, current.max, plot);
              // Neighbouring clusters share w − Δ samples: alternate rows keep each one's extent readable.
              return (
                <rect
                  key={c.node}
                  className={'memory-cluster' + (k % 2 ? ' is-odd' : '')}
                  data-node={c.node}
                  x={s.x + 0.5}
                  y={STRIP_HEIGHT + 3 + (k % 2) * (MARKER_HEIGHT / 2)}
                  width={Math.max(1, s.width - 1)}
                  height={MARKER_HEIGHT / 2 - 1}
                  onClick={e => onSelectCluster(c.node, e.shiftKey)}
                  onPointerEnter={() => onHoverCluster(k)}
                  onPointerLeave={() => onHoverCluster(null)}
                >
                  <title>{`cluster of samples ${c.start}–${c.end} (${current.attribute} ${formatAxisValue(c.min)} – ${formatAxisValue(c.max)}): ${memoryMetricLabel(currentClusters.metric)} ${Number.isFinite(c.value) ? c.value.toFixed(2) : '–'}${clusterLoad(data, c)}\nClick selects its samples.`}</title>
                </rect>
              );
            })}
            <text className="memory-axis-value" x={0} y={STRIP_HEIGHT + MARKER_HEIGHT + 14}>
              {axisEndLabels(current.min, current.max)[0]}
            </text>
            <text className="memory-axis-value" x={plot} y={STRIP_HEIGHT + MARKER_HEIGHT + 14} textAnchor="end">
              {axisEndLabels(current.min, current.max)[1]}
            </text>
            <text className="memory-axis-value" x={plot / 2} y={STRIP_HEIGHT + MARKER_HEIGHT + 14} textAnchor="middle">
              {currentClusters
                ? `${currentClusters.clusters.length} clusters of ${currentClusters.leaves} windows`
                : 'clustering…'}
            </text>
          </svg>
          {glyph ? (
            <div
              className="memory-cluster-glyph"
              data-cluster-glyph={glyph.cluster.node}
              style={{ left: glyph.left, top: STRIP_HEIGHT + MARKER_HEIGHT + 20 }}
            >
              <TopologyView data={glyph.cluster.machineView!} width={GLYPH} height={GLYPH} compact legend={false} />
              <div className="memory-muted">
                {axisEndLabels(glyph.cluster.min, glyph.cluster.max).join(' – ')}:{' '}
                {Number.isFinite(glyph.cluster.value) ? glyph.cluster.value.toFixed(2) : '–'}
              </div>
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
