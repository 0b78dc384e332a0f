/** @jsxRuntime automatic */
/**
 * The Memory view (MemAxes, seed 002) as mounted in the webview: a toolbar (selection mode, clear,
 * hide / show), the machine pane (topology and per-depth scores), the code and variable views, the
 * metric strip with cluster markers, and the parallel histograms — all linked through one
 * selection that lives in the memory system (the host forwards every request; this side draws the
 * level-of-detail data that comes back). The root states what is shown as `data-*` facts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MEMORY_HOST_TO_VIEW_TYPES,
  type MemoryClusterData,
  type MemoryHostToView,
  type MemoryPanelData,
  type MemoryScopeAction,
  type MemorySelectionMode,
  type MemorySelectionTarget,
  type MemoryStripData,
  type MemoryViewToHost,
} from '../../../../src/shared/memory-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { formatCycles, formatLevelShare } from '../../../../src/analysis/stats/memory-format';
import { ErrorPanel } from '../../components/error-panel';
import { Segmented } from '../../components/segmented';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { formatCount } from '../../format';
import { getViewState, postMessage, setViewState, useHostMessages } from '../../vscode-api';
import { DepthTable, TopologyPane, type MachineColour } from './machine-pane';
import { moveAxis, orderedHistograms } from './memory-layout';
import { MetricStripView, stripAttributes, type StripSettings } from './metric-strip-view';
import { ParallelHistograms, type Brushes } from './parallel-histograms';
import { CodeBars, LevelLegend, VariableBars } from './source-bars';
import './memory.css';

interface Persisted {
  data?: MemoryPanelData;
  order?: string[];
  brushes?: Brushes;
  mode?: MemorySelectionMode;
  strip?: StripSettings;
  colour?: MachineColour;
}

const post = (m: MemoryViewToHost) => postMessage(m);

/** The strip a dataset starts with: NUMA imbalance along time (MemAxes' first case study), 50 windows, 6 clusters. */
function defaultStrip(data: MemoryPanelData): StripSettings {
  const attributes = stripAttributes(data);
  const attribute = attributes.find(a => a.toLowerCase() === 'time') ?? attributes[0] ?? '';
  return { attribute, metric: { score: 'imbalance', depth: data.topology ? 'numa' : 'pu' }, windows: 50, clusters: 6 };
}

export function MemoryApp() {
  const saved = getViewState<Persisted>('memory');
  const [data, setData] = useState<MemoryPanelData | null>(saved?.data ?? null);
  const [order, setOrder] = useState<string[]>(saved?.order ?? []);
  const [brushes, setBrushes] = useState<Brushes>(saved?.brushes ?? {});
  const [mode, setMode] = useState<MemorySelectionMode>(saved?.mode ?? 'new');
  const [strip, setStrip] = useState<StripSettings | null>(saved?.strip ?? null);
  const [colour, setColour] = useState<MachineColour>(saved?.colour ?? 'cycles');
  const [stripData, setStripData] = useState<MemoryStripData | null>(null);
  const [clusters, setClusters] = useState<MemoryClusterData | null>(null);
  const [hoveredCluster, setHoveredCluster] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const requestIds = useRef({ next: 1, strip: 0, clusters: 0 });

  useEffect(() => {
    setViewState<Persisted>('memory', {
      ...(data ? { data } : {}),
      order,
      brushes,
      mode,
      ...(strip ? { strip } : {}),
      colour,
    });
  }, [data, order, brushes, mode, strip, colour]);

  useHostMessages<MemoryHostToView>(MEMORY_HOST_TO_VIEW_TYPES, message => {
    switch (message.type) {
      case 'memory/data':
        setData(message.data);
        setUnavailable(null);
        setError(null);
        setBusy(false);
        if (message.origin === 'open') {
          // Another dataset (or the same opened again): its own axes, brushes and strip.
          setOrder(message.data.histograms.map(h => h.attribute));
          setBrushes({});
          setStrip(s => (s && stripAttributes(message.data).includes(s.attribute) ? s : defaultStrip(message.data)));
        } else if (message.origin === 'editor' || !message.data.selected) setBrushes({});
        break;
      case 'memory/strip':
        if (message.requestId === requestIds.current.strip) setStripData(message.strip);
        break;
      case 'memory/clusters':
        if (message.requestId === requestIds.current.clusters) setClusters(message.clusters);
        break;
      case 'memory/unavailable':
        setData(null);
        setUnavailable(message.message);
        setBusy(false);
        break;
      case 'error':
        setError(message.message);
        setBusy(false);
        break;
      default:
        assertNever(message, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'memory' }), []);

  // The strip and the clusters follow the settings, and the scope (they score the visible samples).
  const scopeKey = data ? `${data.samplesPath}|${data.visible.samples}|${data.visible.cycles}` : '';
  useEffect(() => {
    // Strips and clusters score the machine's resources: without a topology there is nothing to ask.
    if (!data || !data.topology || !strip || !strip.attribute) return;
    const ids = requestIds.current;
    ids.strip = ids.next++;
    post({
      type: 'memory/strip',
      requestId: ids.strip,
      attribute: strip.attribute,
      metric: strip.metric,
      windows: strip.windows,
    });
    ids.clusters = ids.next++;
    post({
      type: 'memory/clusters',
      requestId: ids.clusters,
      attribute: strip.attribute,
      metric: strip.metric,
      count: strip.clusters,
    });
    // The scope key stands for the data the requests depend on (a new scope re-scores the strip).
  }, [scopeKey, strip]);

  const select = useCallback(
    (target: MemorySelectionTarget, additive = false, keepBrushes = false) => {
      if (!keepBrushes) setBrushes({});
      setBusy(true);
      post({ type: 'memory/select', mode: additive ? 'append' : mode, target });
    },
    [mode],
  );
  const scope = useCallback((action: MemoryScopeAction) => {
    setBrushes({});
    setBusy(true);
    post({ type: 'memory/scope', action });
  }, []);
  const brush = useCallback(
    (attribute: string, range: { min: number; max: number } | null) => {
      const next = { ...brushes };
      if (range) next[attribute] = range;
      else delete next[attribute];
      setBrushes(next);
      const ranges = Object.entries(next).map(([a, r]) => ({ attribute: a, ...r }));
      setBusy(true);
      if (ranges.length) post({ type: 'memory/select', mode, target: { kind: 'ranges', ranges } });
      else post({ type: 'memory/scope', action: 'clear' });
    },
    [brushes, mode],
  );

  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, data !== null);
  const machineBox = useRef<HTMLElement>(null);
  const machineSize = useElementSize(machineBox, data !== null);

  if (!data) {
    if (unavailable)
      return (
        <StatusMessage title="No memory samples">
          <span className="memory-unavailable">{unavailable}</span>
        </StatusMessage>
      );
    return error ? (
      <div className="view-error">
        <ErrorPanel title="Could not show the memory samples" message={error} />
      </div>
    ) : (
      <StatusMessage title="Reading the memory samples…" busy />
    );
  }

  const width = Math.max(480, size?.width ?? 960);
  const histograms = orderedHistograms(data.histograms, order);
  const hidden = data.all.samples - data.visible.samples;
  return (
    <div
      className="memory-view"
      ref={box}
      data-samples={data.all.samples}
      data-visible={data.visible.samples}
      data-selected={data.selected?.samples ?? 0}
      data-busy={busy ? 'true' : 'false'}
    >
      <header className="memory-toolbar">
        <div className="memory-title" title={data.samplesPath}>
          <strong>{data.title}</strong>
          <span className="memory-muted">
            {' '}
            {data.format}
            {data.dialect && data.dialect !== data.format ? ` (${data.dialect})` : ''} · {formatCount(data.all.samples)}{' '}
            samples · {formatCycles(data.all.cycles)}
          </span>
        </div>
        <div className="memory-focus" role="status">
          {data.selected
            ? `Selection: ${formatCount(data.selected.samples)} samples · ${formatCycles(data.selected.cycles)} · ${formatLevelShare(data.focusShare)} of all cycles`
            : `No selection: ${formatCount(data.visible.samples)} visible samples · ${formatLevelShare(data.focusShare)} of all cycles`}
          {hidden > 0 ? ` · ${formatCount(hidden)} hidden` : ''}
        </div>
        <div className="memory-actions">
          <Segmented<MemorySelectionMode>
            label="Select"
            value={mode}
            choices={[
              ['new', 'New'],
              ['append', 'Add'],
              ['filter', 'Filter'],
            ]}
            onChange={setMode}
          />
          <button
            className="memory-action"
            data-action="clear"
            disabled={!data.selected}
            onClick={() => scope('clear')}
          >
            Clear
          </button>
          <button
            className="memory-action"
            data-action="hideSelected"
            disabled={!data.selected}
            title="Hide the selected samples from every view"
            onClick={() => scope('hideSelected')}
          >
            Hide selected
          </button>
          <button
            className="memory-action"
            data-action="hideUnselected"
            disabled={!data.selected}
            title="Keep only the selected samples"
            onClick={() => scope('hideUnselected')}
          >
            Hide others
          </button>
          <button
            className="memory-action"
            data-action="showAll"
            disabled={hidden === 0}
            onClick={() => scope('showAll')}
          >
            Show all
          </button>
        </div>
      </header>
      {data.warnings.length ? (
        <details className="memory-warnings">
          <summary>
            {data.warnings.length} warning{data.warnings.length > 1 ? 's' : ''} while reading
          </summary>
          <ul>
            {data.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {error ? (
        <div className="memory-error" role="alert">
          {error}
        </div>
      ) : null}
      <div className="memory-grid">
        <section className="memory-machine" aria-label="Machine" ref={machineBox}>
          <h2>Machine</h2>
          <TopologyPane
            data={data}
            width={Math.max(280, machineSize?.width ?? 480)}
            height={Math.round(Math.min(520, Math.max(320, (machineSize?.width ?? 480) * 0.8)))}
            colour={colour}
            onColour={setColour}
            onSelectNode={(node, add) => select({ kind: 'node', node }, add)}
            onClear={() => scope('clear')}
          />
          <DepthTable data={data} onSelectNode={(node, add) => select({ kind: 'node', node }, add)} />
          {data.total && (data.total.unplaced.samples > 0 || (data.selection?.unplaced.samples ?? 0) > 0) ? (
            <p className="memory-muted memory-unplaced">
              {formatCount(data.total.unplaced.samples)} samples ({formatCycles(data.total.unplaced.cycles)}) ran on
              CPUs the topology does not list: unplaced, counted everywhere else.
            </p>
          ) : null}
        </section>
        <section className="memory-code" aria-label="Code">
          <h2>
            Code <span className="memory-muted">by cycles {data.selected ? 'of the selection' : ''}</span>
          </h2>
          <LevelLegend />
          <CodeBars
            data={data}
            onSelectLine={(file, line, add) => select({ kind: 'line', file, line }, add)}
            onSelectFile={(file, add) => select({ kind: 'file', file }, add)}
            onOpenLine={(file, line) => post({ type: 'memory/openSource', file, line })}
          />
        </section>
        <section className="memory-variables" aria-label="Variables">
          <h2>
            Variables <span className="memory-muted">by cycles {data.selected ? 'of the selection' : ''}</span>
          </h2>
          <VariableBars data={data} onSelectVariable={(name, add) => select({ kind: 'variable', name }, add)} />
        </section>
      </div>
      <section className="memory-strip-section" aria-label="Metric strip">
        <h2>Metric strip and clusters</h2>
        {strip ? (
          <MetricStripView
            data={data}
            settings={strip}
            strip={stripData}
            clusters={clusters}
            width={width - 24}
            onSettings={setStrip}
            hovered={hoveredCluster}
            onHoverCluster={setHoveredCluster}
            onSelectCluster={(node, add) =>
              select({ kind: 'cluster', attribute: strip.attribute, metric: strip.metric, node }, add)
            }
          />
        ) : null}
      </section>
      <section className="memory-histograms-section" aria-label="Parallel histograms">
        <h2>
          Attributes{' '}
          <span className="memory-muted">
            drag along an axis to brush; brushes on several axes select the samples inside all of them
          </span>
        </h2>
        <ParallelHistograms
          histograms={histograms}
          brushes={brushes}
          width={width - 24}
          height={260}
          onBrush={brush}
          onMove={(attribute, by) =>
            setOrder(moveAxis(order.length ? order : data.histograms.map(h => h.attribute), attribute, by))
          }
        />
      </section>
    </div>
  );
}
