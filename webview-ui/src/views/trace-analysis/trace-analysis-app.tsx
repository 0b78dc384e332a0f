/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The Trace Analysis panel as mounted in the webview: the host connection (running → result, the
 * iteration matrix on demand, a path selected from a CodeLens or the side bar) around
 * TraceAnalysisPanelView.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  TRACE_ANALYSIS_HOST_TO_VIEW_TYPES,
  type IterationMatrix,
  type TraceAnalysisHostToView,
  type TraceAnalysisResultMessage,
  type TraceAnalysisRunningMessage,
  type TraceAnalysisUnavailableMessage,
  type TraceAnalysisViewToHost,
} from '../../../../src/shared/trace-analysis-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { postMessage, useHostMessages } from '../../vscode-api';
import { TraceAnalysisPanelView } from './trace-analysis-view';
import './trace-analysis.css';

const post = (m: TraceAnalysisViewToHost) => postMessage(m);

type Screen =
  | { kind: 'waiting' }
  | { kind: 'running'; m: TraceAnalysisRunningMessage }
  | { kind: 'unavailable'; m: TraceAnalysisUnavailableMessage };

export function TraceAnalysisApp() {
  const [result, setResult] = useState<TraceAnalysisResultMessage | null>(null);
  const [screen, setScreen] = useState<Screen>({ kind: 'waiting' });
  const [matrix, setMatrix] = useState<IterationMatrix | null>(null);
  const [selectedPath, setSelectedPath] = useState<number | null>(null);
  const [byCluster, setByCluster] = useState(true);
  const ref = useRef<HTMLDivElement>(null);
  const size = useElementSize(ref);

  useHostMessages<TraceAnalysisHostToView>(TRACE_ANALYSIS_HOST_TO_VIEW_TYPES, m => {
    switch (m.type) {
      case 'traceAnalysis/running':
        setScreen({ kind: 'running', m });
        break;
      case 'traceAnalysis/result':
        setResult(r => {
          if (r?.view !== m.view) setMatrix(null);
          return m;
        });
        setScreen({ kind: 'waiting' });
        break;
      case 'traceAnalysis/iterations':
        setMatrix(m.matrix);
        break;
      case 'traceAnalysis/unavailable':
        setResult(null);
        setMatrix(null);
        setScreen({ kind: 'unavailable', m });
        break;
      case 'traceAnalysis/selectPath':
        setSelectedPath(m.path);
        break;
      case 'error':
        setScreen({
          kind: 'unavailable',
          m: { type: 'traceAnalysis/unavailable', title: '', message: m.message, canAnalyse: true },
        });
        break;
      default:
        assertNever(m, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'trace-analysis' }), []);
  const setTimelineByCluster = useCallback((on: boolean) => {
    setByCluster(on);
    post({ type: 'traceAnalysis/timelineByCluster', on });
  }, []);

  let body;
  if (screen.kind === 'running')
    body = (
      <div className="trace-analysis-app" data-state="running">
        <StatusMessage title={`Analysing ${screen.m.title}… ${Math.round(screen.m.fraction * 100)} %`} busy>
          <p>{screen.m.message}</p>
          <button type="button" onClick={() => post({ type: 'traceAnalysis/cancel' })}>
            Cancel
          </button>
        </StatusMessage>
      </div>
    );
  else if (result)
    body = (
      <TraceAnalysisPanelView
        result={result}
        matrix={matrix}
        selectedPath={selectedPath}
        timelineByCluster={byCluster}
        post={post}
        selectPath={setSelectedPath}
        setTimelineByCluster={setTimelineByCluster}
        width={size?.width ?? 800}
      />
    );
  else if (screen.kind === 'unavailable')
    body = (
      <div className="trace-analysis-app" data-state="unavailable">
        <StatusMessage title={screen.m.title ? `Trace Analysis: ${screen.m.title}` : 'Trace Analysis'}>
          <p>{screen.m.message}</p>
          {screen.m.canAnalyse ? (
            <button type="button" onClick={() => post({ type: 'traceAnalysis/analyse' })}>
              Analyse Trace
            </button>
          ) : null}
        </StatusMessage>
      </div>
    );
  else body = <StatusMessage title="Loading…" busy />;
  return (
    <div className="ta-root" ref={ref}>
      {body}
    </div>
  );
}
