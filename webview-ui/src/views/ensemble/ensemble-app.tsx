/** @jsxRuntime automatic */
/**
 * Ensemble CallFlow as mounted in the webview (seed-callflow §4): the toolbar (mode, target, diff
 * pair, gradient and border sides, bins, text guides, ordering), the ensemble-Sankey, and below it
 * two panes of linked views — supernode hierarchy, call-site correspondence, metric correlation,
 * runtime distribution, parameter projection — each pane showing the view the user picks, so two
 * can be read side by side. The host keeps the state; this side posts requests and draws what comes
 * back. Each view states what it drew as `data-*` attributes (`data-ensemble-view`, `data-drawn`…).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ENSEMBLE_HOST_TO_VIEW_TYPES,
  type EnsembleDetailData,
  type EnsembleGraphData,
  type EnsembleHostToView,
  type EnsembleProjectionData,
  type EnsembleRequest,
  type EnsembleSourceRef,
  type EnsembleViewState,
  type EnsembleViewToHost,
  type LinkedViewName,
} from '../../../../src/shared/ensemble-protocol';
import { unpackEnsembleDetail, unpackEnsembleGraph } from '../../../../src/shared/ensemble-packing';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { getViewState, postMessage, setViewState, useHostMessages } from '../../vscode-api';
import { CallSiteBoxesView } from './call-site-boxes-view';
import { DEFAULT_PALETTE, paletteFromTheme, setEnsemblePalette, type EnsemblePalette } from './ensemble-colours';
import { EnsembleSankeyView } from './ensemble-sankey-view';
import { EnsembleToolbar } from './ensemble-toolbar';
import { MetricCorrelationView } from './metric-correlation-view';
import { ParameterProjectionView } from './parameter-projection-view';
import { RuntimeDistributionView } from './runtime-distribution-view';
import { SupernodeIcicleView } from './supernode-icicle-view';
import './ensemble-app.css';
import './ensemble-sankey.css';
import './ensemble-views.css';

type LinkedView = LinkedViewName;

export const LINKED_VIEWS: [LinkedView, string][] = [
  ['icicle', 'Hierarchy'],
  ['boxes', 'Call sites'],
  ['correlation', 'Correlation'],
  ['distribution', 'Distribution'],
  ['projection', 'Projection'],
];

interface Persisted {
  data?: EnsembleGraphData;
  state?: EnsembleViewState;
  projection?: EnsembleProjectionData;
  detail?: EnsembleDetailData | null;
  panes?: [LinkedView, LinkedView];
  detailsHeight?: number;
}

/** Sends a message of the ensemble view's protocol to the host. */
const post = (m: EnsembleViewToHost) => postMessage(m);

function themePalette(): EnsemblePalette {
  return typeof document === 'undefined'
    ? DEFAULT_PALETTE
    : paletteFromTheme(getComputedStyle(document.documentElement));
}

const samePalette = (a: EnsemblePalette, b: EnsemblePalette): boolean =>
  a.runtime.join() === b.runtime.join() && [0.25, 0.5, 1].every(t => a.distribution(t) === b.distribution(t));

/**
 * The runtime and distribution colour maps of the theme's tokens (hpcLens.ensembleRuntime*,
 * hpcLens.ensembleDistribution*), re-read when VS Code changes the theme or its colour
 * customisations; every view draws with them on the next render.
 */
function useEnsemblePalette(): void {
  const [palette, setPalette] = useState(themePalette);
  setEnsemblePalette(palette);
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() =>
      setPalette(prev => {
        const next = themePalette();
        return samePalette(prev, next) ? prev : next;
      }),
    );
    observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
    // The variables live in <html>'s style attribute; VS Code rewrites it on theme change too.
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    return () => observer.disconnect();
  }, []);
}

export function EnsembleApp() {
  useEnsemblePalette();
  const saved = getViewState<Persisted>('ensemble');
  const [data, setData] = useState<EnsembleGraphData | null>(saved?.data ?? null);
  const [state, setState] = useState<EnsembleViewState | null>(saved?.state ?? null);
  const [projection, setProjection] = useState<EnsembleProjectionData | null>(saved?.projection ?? null);
  const [detail, setDetail] = useState<EnsembleDetailData | null>(saved?.detail ?? null);
  const [panes, setPanes] = useState<[LinkedView, LinkedView]>(saved?.panes ?? ['icicle', 'boxes']);
  const [detailsHeight, setDetailsHeight] = useState(saved?.detailsHeight ?? 300);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setViewState<Persisted>('ensemble', {
      ...(data ? { data } : {}),
      ...(state ? { state } : {}),
      ...(projection ? { projection } : {}),
      detail,
      panes,
      detailsHeight,
    });
  }, [data, state, projection, detail, panes, detailsHeight]);

  const request = useCallback((r: EnsembleRequest) => {
    // Optimistic selection: the Sankey outlines the node at once; the detail follows from the host.
    if (r.type === 'ensemble/select') setState(s => (s ? { ...s, selected: r.nodeId } : s));
    post(r);
  }, []);
  const openSource = useCallback((ref: EnsembleSourceRef) => post({ type: 'openSource', ref }), []);

  useHostMessages<EnsembleHostToView>(ENSEMBLE_HOST_TO_VIEW_TYPES, message => {
    switch (message.type) {
      case 'ensemble/graph':
        setData(unpackEnsembleGraph(message.data));
        setState(message.state);
        setProjection(message.projection);
        setError(null);
        break;
      case 'ensemble/detail':
        setDetail(message.detail && unpackEnsembleDetail(message.detail));
        setState(message.state);
        break;
      case 'error':
        setError(message.message);
        break;
      default:
        assertNever(message, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'ensemble' }), []);

  const sankeyBox = useRef<HTMLDivElement>(null);
  // The boxes exist once there is data (before that the app shows a status message).
  const mounted = data !== null && state !== null;
  const sankeySize = useElementSize(sankeyBox, mounted);
  const paneBox = useRef<HTMLDivElement>(null);
  const paneSize = useElementSize(paneBox, mounted);

  if (!data || !state) {
    return error ? (
      <div className="view-error">
        <ErrorPanel title="Could not show the ensemble" message={error} />
      </div>
    ) : (
      <StatusMessage title="Computing the ensemble graph…" busy />
    );
  }
  const paneWidth = paneSize ? Math.max(200, Math.floor((paneSize.width - 12) / 2)) : 400;
  const paneHeight = Math.max(120, detailsHeight - 34);
  const common = { data, state, onRequest: request, width: paneWidth, height: paneHeight };
  const linked = (view: LinkedView) => {
    if (view === 'projection') {
      return projection ? (
        <ParameterProjectionView {...common} projection={projection} />
      ) : (
        <StatusMessage title="No projection" />
      );
    }
    if (!detail)
      return (
        <p className="ens-pane-hint">
          Select a node of the ensemble-Sankey to see its {LINKED_VIEWS.find(v => v[0] === view)![1].toLowerCase()}.
        </p>
      );
    switch (view) {
      case 'icicle':
        return <SupernodeIcicleView {...common} detail={detail} onOpenSource={openSource} />;
      case 'boxes':
        return <CallSiteBoxesView {...common} detail={detail} onOpenSource={openSource} />;
      case 'correlation':
        return <MetricCorrelationView {...common} detail={detail} />;
      case 'distribution':
        return <RuntimeDistributionView {...common} detail={detail} />;
    }
  };
  return (
    <div className="view-stack ensemble-app" data-mode={state.mode} data-selected={state.selected ?? ''}>
      {error ? (
        <div className="view-banner">
          <ErrorPanel title="Could not update the ensemble" message={error} onDismiss={() => setError(null)} />
        </div>
      ) : null}
      <EnsembleToolbar data={data} state={state} onRequest={request} />
      <div className="ensemble-sankey-box" ref={sankeyBox}>
        {sankeySize ? (
          <EnsembleSankeyView
            data={data}
            state={state}
            width={sankeySize.width}
            height={sankeySize.height}
            onRequest={request}
            onOpenSource={openSource}
          />
        ) : null}
      </div>
      <PaneResizer height={detailsHeight} onResize={setDetailsHeight} />
      <div className="ensemble-panes" ref={paneBox} style={{ height: detailsHeight }}>
        {([0, 1] as const).map(i => (
          <section className="ensemble-pane" key={i} aria-label={`Linked view ${i + 1}`}>
            <div className="ensemble-pane-tabs" role="tablist">
              {LINKED_VIEWS.map(([view, label]) => (
                <button
                  key={view}
                  type="button"
                  role="tab"
                  aria-selected={panes[i] === view}
                  data-pane={i}
                  data-linked-view={view}
                  className={panes[i] === view ? 'active' : ''}
                  onClick={() => setPanes(p => (i === 0 ? [view, p[1]] : [p[0], view]))}
                >
                  {label}
                  {view === 'projection' ? (
                    <span
                      className="ens-experimental"
                      title="Experimental: projections of run parameters are hard to interpret"
                    >
                      β
                    </span>
                  ) : null}
                </button>
              ))}
              {detail && panes[i] !== 'projection' ? (
                <span className="ensemble-pane-node" title={detail.nodeId}>
                  {detail.label}
                </span>
              ) : null}
            </div>
            <div className="ensemble-pane-body">{linked(panes[i])}</div>
          </section>
        ))}
      </div>
    </div>
  );
}

function PaneResizer({ height, onResize }: { height: number; onResize: (h: number) => void }) {
  const start = useRef<{ y: number; h: number } | null>(null);
  const clamp = (h: number) => Math.max(140, Math.min(window.innerHeight - 200, h));
  return (
    <div
      className="callflow-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the linked views"
      tabIndex={0}
      onPointerDown={e => {
        start.current = { y: e.clientY, h: height };
        (e.target as Element).setPointerCapture(e.pointerId);
      }}
      onPointerMove={e => {
        if (start.current) onResize(clamp(start.current.h - (e.clientY - start.current.y)));
      }}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={e => {
        if (e.key === 'ArrowUp') onResize(clamp(height + 20));
        if (e.key === 'ArrowDown') onResize(clamp(height - 20));
      }}
    />
  );
}
