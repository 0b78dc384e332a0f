/** @jsxRuntime automatic */
/**
 * The PDES panel's content for one run's views (thesis ch. 5, Fig 5.7): header, toolbar of the
 * analysis options, selection bar, overview, detail and similarity rows, per-segment circular views,
 * the segment's matrix, the dragonfly pane and the handlers. Posts the user's changes to the host.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PdesAnalysisOptions } from '../../../../src/analysis/pdes/analysis-options';
import type { PdesRunSummary, PdesViews } from '../../../../src/analysis/pdes/panel-views';
import type { PdesSelection, ValueFilter } from '../../../../src/analysis/pdes/selection';
import type { PdesPanelState, PdesViewToHost } from '../../../../src/shared/pdes-protocol';
import type { TopologyViewEvent } from '../../../../src/shared/topology-protocol';
import { TopologyView } from '../../components/topology';
import { formatCount, formatShare } from '../../format';
import { postMessage } from '../../vscode-api';
import { ClusterLegend, DetailChart, OverviewChart, SimilarityChart } from './pdes-charts';
import { CircularView, MatrixView } from './pdes-circular';

const post = (m: PdesViewToHost) => postMessage(m);

export interface PdesShown {
  title: string;
  run: PdesRunSummary;
  views: PdesViews;
  state: PdesPanelState;
  settings: Partial<PdesAnalysisOptions>;
}

/** Options the toolbar sets (a changed one is marked against the settings). */
function setOption(options: Partial<PdesAnalysisOptions>) {
  post({ type: 'pdes/options', options });
}

function setSelection(selection: PdesSelection) {
  post({ type: 'pdes/selection', selection });
}

function Select<T extends string | number>({
  label,
  value,
  choices,
  onChange,
  changed,
  name,
}: {
  label: string;
  value: T;
  choices: [T, string][];
  onChange: (v: T) => void;
  changed?: boolean;
  name: string;
}) {
  return (
    <label
      className={'pdes-control' + (changed ? ' is-changed' : '')}
      title={changed ? 'Changed from the settings' : undefined}
    >
      <span>{label}</span>
      <select
        data-option={name}
        value={String(value)}
        onChange={e => {
          const picked = choices.find(c => String(c[0]) === e.target.value);
          if (picked) onChange(picked[0]);
        }}
      >
        {choices.map(([v, text]) => (
          <option key={String(v)} value={String(v)}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A number input that posts on Enter or when it loses focus. */
function NumberInput({
  label,
  value,
  onCommit,
  name,
  min,
  step,
  changed,
}: {
  label: string;
  value: number | null;
  onCommit: (v: number | null) => void;
  name: string;
  min?: number;
  step?: number;
  changed?: boolean;
}) {
  const [text, setText] = useState(value === null ? '' : String(value));
  useEffect(() => setText(value === null ? '' : String(value)), [value]);
  const commit = () => {
    const v = text.trim() === '' ? null : Number(text);
    if (v !== null && !Number.isFinite(v)) return;
    if (v !== value) onCommit(v);
  };
  return (
    <label className={'pdes-control' + (changed ? ' is-changed' : '')}>
      <span>{label}</span>
      <input
        type="number"
        data-option={name}
        value={text}
        min={min}
        step={step}
        onChange={e => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={e => {
          if (e.key === 'Enter') commit();
        }}
      />
    </label>
  );
}

function Toolbar({ shown }: { shown: PdesShown }) {
  const { views, state, settings, run } = shown;
  const o = views.options;
  const changed = (k: keyof PdesAnalysisOptions) => k in state.options && state.options[k] !== settings[k];
  const metrics = views.levelMetrics.map(m => [m.id, m.label] as [string, string]);
  const samples = run.samples as Record<string, number>;
  const axes = (['gvt', 'rt', 'vt'] as const).filter(a => (samples[a] ?? 0) > 0);
  const levels = (['pe', 'kp', 'lp'] as const).filter(l => l !== 'lp' || (samples['vt'] ?? 0) > 0);
  return (
    <div className="pdes-toolbar" role="toolbar" aria-label="PDES analysis options">
      <Select
        name="level"
        label="Entities"
        value={o.level}
        choices={levels.map(l => [l, l.toUpperCase()] as [typeof l, string])}
        onChange={v => setOption({ level: v })}
        changed={changed('level')}
      />
      <Select
        name="timeAxis"
        label="Time"
        value={o.timeAxis}
        choices={(axes.length ? axes : [o.timeAxis]).map(a => [a, a.toUpperCase()] as [typeof a, string])}
        onChange={v => setOption({ timeAxis: v })}
        changed={changed('timeAxis')}
      />
      {([0, 1] as const).map(i => (
        <Select
          key={i}
          name={`detailMetric${i}`}
          label={i === 0 ? 'Top' : 'Bottom'}
          value={views.metrics.detail[i]}
          choices={metrics}
          onChange={v => {
            const d: [string, string] = [...views.metrics.detail];
            d[i] = v;
            setOption({ detailMetrics: d });
          }}
          changed={changed('detailMetrics')}
        />
      ))}
      <Select
        name="clustering"
        label="Clusters"
        value={o.clustering}
        choices={[
          ['k-means', 'k-means'],
          ['pam', 'PAM'],
          ['complete-linkage', 'Complete linkage'],
        ]}
        onChange={v => setOption({ clustering: v })}
        changed={changed('clustering')}
      />
      <NumberInput
        name="clusters"
        label="k"
        value={o.clusters}
        min={1}
        onCommit={v => v !== null && setOption({ clusters: v })}
        changed={changed('clusters')}
      />
      <Select
        name="distance"
        label="Distance"
        value={o.distance}
        choices={[
          ['euclidean', 'Euclidean'],
          ['dtw', 'DTW'],
          ['twed', 'TWED'],
        ]}
        onChange={v => setOption({ distance: v })}
        changed={changed('distance')}
      />
      <Select
        name="projection"
        label="Similarity"
        value={o.projection}
        choices={[
          ['mds', 'MDS'],
          ['tsne', 't-SNE'],
        ]}
        onChange={v => setOption({ projection: v })}
        changed={changed('projection')}
      />
      <Select
        name="overviewStatistic"
        label="Overview"
        value={o.overviewStatistic}
        choices={[
          ['max', 'Max'],
          ['mean', 'Mean'],
          ['std', 'Std'],
        ]}
        onChange={v => setOption({ overviewStatistic: v })}
        changed={changed('overviewStatistic')}
      />
      <Select
        name="communicationWeight"
        label="Ribbons"
        value={o.communicationWeight}
        choices={[
          ['sends', 'Sends'],
          ['receives', 'Receives'],
          ['sum', 'Sum'],
          ['max', 'Max'],
        ]}
        onChange={v => setOption({ communicationWeight: v })}
        changed={changed('communicationWeight')}
      />
      <NumberInput
        name="ribbonThreshold"
        label="≥"
        value={o.ribbonThreshold}
        min={0}
        onCommit={v => setOption({ ribbonThreshold: v ?? 0 })}
        changed={changed('ribbonThreshold')}
      />
      <Select
        name="ringEncoding"
        label="Rings"
        value={o.ringEncoding}
        choices={[
          ['bars', 'Bars'],
          ['heatmap', 'Heatmap'],
        ]}
        onChange={v => setOption({ ringEncoding: v })}
        changed={changed('ringEncoding')}
      />
      <button
        type="button"
        className="pdes-button"
        data-action="reset"
        disabled={Object.keys(state.options).length === 0}
        onClick={() => post({ type: 'pdes/resetOptions' })}
        title="Back to the hpcLens.pdes.* settings (range, segments and selection included)"
      >
        Reset
      </button>
    </div>
  );
}

/** What the selection is, and how to clear it. */
function SelectionBar({ shown }: { shown: PdesShown }) {
  const { views, state } = shown;
  const sel = views.selection;
  const parts: string[] = [];
  if (sel.clusters) parts.push(`clusters ${sel.clusters.join(', ')}`);
  if (sel.entities) parts.push(`${sel.entities.length} picked`);
  for (const f of sel.valueFilters ?? [])
    parts.push(`${f.metric} ${f.min !== undefined ? `≥ ${f.min}` : ''}${f.max !== undefined ? ` ≤ ${f.max}` : ''}`);
  const level = views.level.toUpperCase();
  return (
    <div className="pdes-selection-bar" data-selected={views.selected.length} data-total={views.entities.ids.length}>
      <strong>{`${formatCount(views.selected.length)} of ${formatCount(views.entities.ids.length)} ${level}s selected`}</strong>
      {parts.length ? <span>{` · ${parts.join(' · ')}`}</span> : null}
      {views.pickNote ? <span className="pdes-note">{views.pickNote}</span> : null}
      <button
        type="button"
        className="pdes-button"
        data-action="clear-selection"
        disabled={!parts.length}
        onClick={() => setSelection({})}
      >
        Clear selection
      </button>
      <label className="pdes-control">
        <input
          type="checkbox"
          data-option="keepUnselected"
          checked={state.keepUnselected}
          onChange={e => post({ type: 'pdes/keepUnselected', keep: e.target.checked })}
        />
        <span>Keep unselected lines</span>
      </label>
      <span className="pdes-muted">
        {`${views.clustering.algorithm} on ${views.clustering.measure}, k = ${views.clustering.k} · ${views.segments.length} segment${views.segments.length === 1 ? '' : 's'}${views.changePoints.edited ? ' (edited)' : ''} · range ${views.range.from}–${views.range.to - 1} of ${views.ticks} samples`}
      </span>
    </div>
  );
}

/** The right-click cluster filter. */
function ClusterMenu({
  at,
  cluster,
  selection,
  k,
  onClose,
}: {
  at: { x: number; y: number };
  cluster: number;
  selection: PdesSelection;
  k: number;
  onClose: () => void;
}) {
  const all = Array.from({ length: k }, (_, i) => i);
  const shown = selection.clusters ?? all;
  const choose = (clusters: number[] | null) => {
    onClose();
    setSelection({ ...selection, clusters: clusters && clusters.length < k ? clusters : null });
  };
  return (
    <div className="pdes-menu" role="menu" style={{ left: at.x, top: at.y }} onMouseLeave={onClose}>
      <button type="button" role="menuitem" data-menu="only" onClick={() => choose([cluster])}>
        {`Show only Cluster-${cluster}`}
      </button>
      <button type="button" role="menuitem" data-menu="hide" onClick={() => choose(shown.filter(c => c !== cluster))}>
        {`Hide Cluster-${cluster}`}
      </button>
      <button type="button" role="menuitem" data-menu="all" onClick={() => choose(null)}>
        Show all clusters
      </button>
    </div>
  );
}

/** A detail view's value filter: entities whose series reaches at least the threshold over the range. */
function ValueFilterInput({ metric, selection }: { metric: string; selection: PdesSelection }) {
  const current = selection.valueFilters?.find(f => f.metric === metric);
  return (
    <NumberInput
      name={`valueFilter-${metric}`}
      label="max ≥"
      value={current?.min ?? null}
      onCommit={v => {
        const others = (selection.valueFilters ?? []).filter(f => f.metric !== metric);
        const next: ValueFilter[] = v === null ? others : [...others, { metric, statistic: 'max', min: v }];
        setSelection({ ...selection, valueFilters: next.length ? next : undefined });
      }}
    />
  );
}

export function PdesPanelBody({
  shown,
  width,
  simSize,
  detailWidth,
}: {
  shown: PdesShown;
  width: number;
  simSize: number;
  detailWidth: number;
}) {
  const { views, run } = shown;
  const [menu, setMenu] = useState<{ x: number; y: number; cluster: number } | null>(null);
  const openMenu = (cluster: number, e: { clientX: number; clientY: number }) =>
    setMenu({ x: e.clientX, y: e.clientY, cluster });
  const circularSize = Math.max(
    180,
    Math.min(280, Math.floor((width - 8) / Math.max(1, Math.min(4, views.circular.segments.length)) - 8)),
  );
  const lowerSize = Math.max(200, Math.min(340, Math.floor((width - 16) / 3)));
  // The network gets the most room of the lower panes: 9 groups of routers and their links need it.
  const networkSize = Math.max(280, Math.min(520, Math.floor(width * 0.36)));
  const matrixSegment = views.matrix?.segment ?? -1;
  return (
    <div
      className="pdes-body"
      data-level={views.level}
      data-axis={views.axis}
      data-selected={views.selected.length}
      data-total={views.entities.ids.length}
      data-segments={views.segments.map(s => s.label).join(',')}
      data-clusters={views.clustering.sizes.join(',')}
      data-run={run.name}
    >
      <header className="pdes-header">
        <h1>{shown.title}</h1>
        <span className="pdes-muted">
          {`${run.program} · ${formatCount(run.entities.pe)} PEs · ${formatCount(run.entities.kp)} KPs · ${formatCount(run.entities.lp)} LPs`}
          {run.totals
            ? ` · ${formatCount(run.totals.eventsProcessed)} events · ${formatCount(run.totals.rollbacks)} rollbacks (${formatCount(run.totals.primaryRollbacks)} primary)`
            : ''}
        </span>
      </header>
      <Toolbar shown={shown} />
      <SelectionBar shown={shown} />
      {views.notes.length || run.warnings.length ? (
        <ul className="pdes-notes">
          {[...views.notes, ...run.warnings].map(n => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <section className="pdes-section" aria-label="Overview">
        <div className="pdes-section-head">
          <h2>Overview</h2>
          <button
            type="button"
            className="pdes-button"
            data-action="whole-range"
            disabled={views.range.from === 0 && views.range.to === views.ticks}
            onClick={() => setOption({ range: null })}
          >
            Whole run
          </button>
          <button
            type="button"
            className="pdes-button"
            data-action="detected-segments"
            disabled={!views.changePoints.edited}
            onClick={() => setOption({ changePoints: null })}
          >
            Detected segments
          </button>
        </div>
        <OverviewChart
          data={views.overview}
          time={views.time}
          width={width}
          height={120}
          edited={views.changePoints.edited}
          onRange={range => setOption({ range })}
          onChangePoints={starts => setOption({ changePoints: starts })}
        />
      </section>
      {([0, 1] as const).map(i => (
        <section className="pdes-row" key={i} aria-label={i === 0 ? 'Top detail view' : 'Bottom detail view'}>
          <div className="pdes-detail-box" style={{ width: detailWidth }}>
            <div className="pdes-section-head">
              <h2>{views.details[i].metric.label}</h2>
              <ClusterLegend legend={views.details[i].legend} shown={views.selection.clusters} onCluster={openMenu} />
              <ValueFilterInput metric={views.details[i].metric.id} selection={views.selection} />
            </div>
            <DetailChart
              data={views.details[i]}
              width={detailWidth}
              height={210}
              title={views.details[i].metric.label}
              onStroke={points => post({ type: 'pdes/pick', pick: { view: 'detail', index: i, points } })}
              onClusterMenu={openMenu}
            />
          </div>
          <div className="pdes-similarity-box">
            <div className="pdes-section-head">
              <h2>Similarity</h2>
            </div>
            <SimilarityChart
              data={views.similarity[i]}
              size={Math.min(simSize, 236)}
              onLasso={points => post({ type: 'pdes/pick', pick: { view: 'similarity', index: i, points } })}
            />
          </div>
        </section>
      ))}
      <section className="pdes-section" aria-label="Circular views">
        <div className="pdes-section-head">
          <h2>Communication and rollbacks per segment</h2>
          <span className="pdes-muted">
            {views.circular.communication
              ? `Ribbons: ${views.circular.weight} per sample between PEs (${views.circular.communication.scope}) · `
              : 'No event trace: rings only · '}
            {`inner ring ${views.circular.innerMetric.label}, outer ring ${views.circular.outerMetric.label}`}
            {views.circular.unplaced ? ` · ${views.circular.unplaced} entities on no known PE left out` : ''}
          </span>
        </div>
        <div className="pdes-circulars">
          {views.circular.segments.map(s => (
            <CircularView
              key={s.segment.label}
              data={views.circular}
              view={s}
              size={circularSize}
              active={s.segment.index === matrixSegment}
              onSegment={seg => post({ type: 'pdes/matrixSegment', segment: seg })}
            />
          ))}
        </div>
      </section>
      <section className="pdes-lower" aria-label="Matrix, network and handlers">
        <div className="pdes-pane">
          <div className="pdes-section-head">
            <h2>
              {views.matrix
                ? `Segment ${views.matrix.label}: ${views.matrix.level.toUpperCase()} × ${views.matrix.level.toUpperCase()}`
                : 'Communication matrix'}
            </h2>
          </div>
          {views.matrix ? (
            <MatrixView data={views.matrix} size={lowerSize} />
          ) : (
            <p className="pdes-muted">The run has no event trace: no communication to show.</p>
          )}
        </div>
        <NetworkPane run={run} views={views} size={networkSize} />
        <HandlersPane views={views} />
      </section>
      {menu ? (
        <ClusterMenu
          at={menu}
          cluster={menu.cluster}
          selection={views.selection}
          k={views.clustering.sizes.length}
          onClose={() => setMenu(null)}
        />
      ) : null}
    </div>
  );
}

/**
 * The dragonfly network (issue 19's first topology view), drawn by the shared topology component
 * within the topology module's default mark budget (a CODES dragonfly of hundreds of routers is
 * folded into groups; the view's capacity is not fed back, so its size never re-asks the host):
 * routers coloured by busy time (the whole run or a segment, on a scale shared by all segments),
 * links by traffic from the link stats, the selected entities' routers and terminals marked;
 * double-click a group to draw its routers. Runs without a dragonfly say so.
 */
export function NetworkPane({ run, views, size }: { run: PdesRunSummary; views: PdesViews; size: number }) {
  const n = views.network;
  const onEvent = useCallback((event: TopologyViewEvent) => {
    if (event.type === 'topology/expand' || event.type === 'topology/collapse') post({ type: 'pdes/topology', event });
  }, []);
  if (!n)
    return (
      <div className="pdes-pane pdes-topology" data-available="false">
        <div className="pdes-section-head">
          <h2>Network</h2>
        </div>
        <p className="pdes-muted">
          The run names no dragonfly network (no CODES configuration with dragonfly parameters).
        </p>
      </div>
    );
  const d = run.dragonfly;
  return (
    <div
      className="pdes-pane pdes-topology"
      data-available="true"
      data-links={run.links?.total ?? 0}
      data-segment={n.segment === null ? '' : n.segments[n.segment]}
    >
      <div className="pdes-section-head">
        <h2>Dragonfly network</h2>
        {n.segments.length ? (
          <Select
            name="networkSegment"
            label="Routers"
            value={n.segment === null ? -1 : n.segment}
            choices={[
              [-1, 'Whole run'] as [number, string],
              ...n.segments.map((l, i) => [i, `Segment ${l}`] as [number, string]),
            ]}
            onChange={v => post({ type: 'pdes/networkSegment', segment: v < 0 ? null : v })}
          />
        ) : null}
      </div>
      <TopologyView data={n.data} width={size} height={size} onEvent={onEvent} ariaLabel="Dragonfly network" />
      <p className="pdes-muted">
        {d ? `${d.groups} groups × ${d.routersPerGroup} routers × ${d.terminalsPerRouter} terminals` : ''}
        {run.links
          ? ` · ${run.links.total} links (${run.links.byType.CN} CN, ${run.links.byType.L} L, ${run.links.byType.G} G)`
          : ' · no link statistics'}
        {n.notes.length ? ` · ${n.notes.join(' ')}` : ''}
      </p>
    </div>
  );
}

/** The model's event handlers with the selection's events; a click opens the handler. */
function HandlersPane({ views }: { views: PdesViews }) {
  const h = views.handlers;
  return (
    <div className="pdes-pane pdes-handlers" data-rows={h.rows.length} data-selected={h.selected}>
      <div className="pdes-section-head">
        <h2>Event handlers</h2>
        <span className="pdes-muted">{`${formatCount(h.selected)} of ${formatCount(h.total)} ${h.level.toUpperCase()}s`}</span>
      </div>
      <table>
        <thead>
          <tr>
            <th>LP type</th>
            <th>LPs</th>
            <th>Processed</th>
            <th>Rolled back</th>
            <th>Handlers</th>
          </tr>
        </thead>
        <tbody>
          {h.rows.map(r => (
            <tr key={r.lpType} data-lp-type={r.lpType}>
              <td>{r.lpType}</td>
              <td className="num">{formatCount(r.lps)}</td>
              <td className="num">{formatCount(r.eventsProcessed)}</td>
              <td className="num" title={r.rolledBackSource ?? undefined}>
                {r.eventsRolledBack === null
                  ? '—'
                  : `${formatCount(r.eventsRolledBack)}${r.eventsProcessed > 0 ? ` (${formatShare(r.eventsRolledBack / r.eventsProcessed)})` : ''}`}
              </td>
              <td>
                {r.handler ? (
                  <>
                    <button
                      type="button"
                      className="pdes-link"
                      data-handler="forward"
                      onClick={() => post({ type: 'pdes/openHandler', lpType: r.lpType, which: 'forward' })}
                    >
                      {r.handler.forward}
                    </button>
                    {r.handler.reverse ? (
                      <button
                        type="button"
                        className="pdes-link"
                        data-handler="reverse"
                        onClick={() => post({ type: 'pdes/openHandler', lpType: r.lpType, which: 'reverse' })}
                      >
                        {r.handler.reverse}
                      </button>
                    ) : null}
                  </>
                ) : (
                  <span className="pdes-muted">set hpcLens.pdes.handlers</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
