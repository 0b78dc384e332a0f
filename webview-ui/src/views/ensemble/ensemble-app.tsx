/** @jsxRuntime automatic */
/**
 * Ensemble CallFlow as mounted in the webview (seed-callflow §4): the toolbar (mode, target, diff
 * pair, gradient and border sides, bins, text guides, ordering), the ensemble-Sankey, and below it
 * two panes of linked views — supernode hierarchy, call-site correspondence, metric correlation,
 * runtime distribution, parameter projection — each pane showing the view the user picks, so two
 * can be read side by side. The host keeps the state; this side posts requests and draws what comes
 * back, and reports what each view drew (`ensemble/rendered`) for the host and its tests.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleProjectionData,
  EnsembleRequest,
  EnsembleViewState,
  LinkedViewName,
} from '../../../../src/shared/ensemble-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { getViewState, postMessage, setViewState, useHostMessages } from '../../vscode-api';
import { CallSiteBoxesView } from './call-site-boxes-view';
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

export function EnsembleApp() {
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
    postMessage(r);
  }, []);
  const openSource = useCallback(
    (file: string, line: number | null, name: string) => postMessage({ type: 'openSource', file, line, name }),
    [],
  );

  useHostMessages(message => {
    switch (message.type) {
      case 'ensemble/graph':
        setData(message.data);
        setState(message.state);
        setProjection(message.projection);
        setError(null);
        break;
      case 'ensemble/detail':
        setDetail(message.detail);
        setState(message.state);
        break;
      case 'ensemble/simulate':
        request(message.request);
        break;
      case 'ensemble/panes':
        setPanes(message.panes);
        break;
      case 'error':
        setError(message.message);
        break;
      default:
        break;
    }
  });
  useEffect(() => postMessage({ type: 'ready', view: 'ensemble' }), []);

  // What each view drew, read from the views' root elements whenever the DOM changes (views lay out
  // and redraw on their own after the app renders); posted when it differs from the last report.
  const root = useRef<HTMLDivElement>(null);
  const reported = useRef('');
  const current = useRef({ mode: state?.mode, selected: state?.selected ?? null });
  current.current = { mode: state?.mode, selected: state?.selected ?? null };
  const report = useCallback(() => {
    const el = root.current;
    const { mode, selected } = current.current;
    if (!el || !mode) return;
    const counts: Record<string, number> = {};
    el.querySelectorAll<HTMLElement>('[data-ensemble-view]').forEach(v => {
      counts[v.dataset['ensembleView']!] = Number(v.dataset['drawn'] ?? 0);
      // Items a view left out for size (e.g. icicle bars narrower than a pixel).
      if (v.dataset['hidden']) counts[`${v.dataset['ensembleView']!}Hidden`] = Number(v.dataset['hidden']);
    });
    const q = (sel: string) => el.querySelectorAll(sel).length;
    Object.assign(counts, {
      sankeyNodes: q('.ens-node'),
      sankeyLinks: q('.ens-link'),
      targetLinks: q('.ens-target-link'),
      targetLines: q('.ens-target-line'),
      gradients: q('.ens-gradient'),
      textGuides: q('.ens-bin'),
    });
    const key = JSON.stringify([counts, mode, selected]);
    if (key === reported.current) return;
    reported.current = key;
    postMessage({ type: 'ensemble/rendered', counts, mode, selected });
  }, []);
  useLayoutEffect(report);
  useEffect(() => {
    const el = root.current;
    if (!el || typeof MutationObserver === 'undefined') return;
    let frame = 0;
    const observer = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(report);
    });
    observer.observe(el, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-drawn', 'data-hidden'],
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [report, data !== null]);

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
    <div className="view-stack ensemble-app" ref={root}>
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
