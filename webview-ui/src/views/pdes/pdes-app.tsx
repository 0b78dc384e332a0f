/** @jsxRuntime automatic */
/**
 * The PDES panel as mounted in the webview (thesis ch. 5's offline system, Fig 5.7; issue 19): a
 * toolbar of the analysis options (level, time axis, metrics, clustering, distance, projection,
 * communication weight, rings), the overview with its brush, two detail views beside their
 * similarity views, the per-segment circular views, the chosen segment's communication matrix, the
 * dragonfly network and the model's handlers with the selection's events. The host keeps the state
 * (options over the settings, range, segments, selection) and sends every view's data at once; this
 * side draws it and posts the user's changes. Linked selection: a stroke, lasso, value or cluster
 * filter in any view becomes the one selection every view shows.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  PDES_HOST_TO_VIEW_TYPES,
  type PdesHostToView,
  type PdesViewToHost,
} from '../../../../src/shared/pdes-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { postMessage, useHostMessages } from '../../vscode-api';
import { MARGIN } from './pdes-geometry';
import { PdesPanelBody, type PdesShown } from './pdes-panel-body';
import './pdes.css';

const post = (m: PdesViewToHost) => postMessage(m);

export function PdesApp() {
  const [shown, setShown] = useState<PdesShown | null>(null);
  const [progress, setProgress] = useState<{ fraction: number; message: string } | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useHostMessages<PdesHostToView>(PDES_HOST_TO_VIEW_TYPES, m => {
    switch (m.type) {
      case 'pdes/views':
        setShown({ title: m.title, run: m.run, views: m.views, state: m.state, settings: m.settings });
        setUnavailable(null);
        setError(null);
        break;
      case 'pdes/progress':
        setProgress(m.fraction === null ? null : { fraction: m.fraction, message: m.message });
        break;
      case 'pdes/unavailable':
        setUnavailable(m.message);
        setShown(null);
        break;
      case 'error':
        setError(m.message);
        break;
      default:
        assertNever(m, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'pdes' }), []);
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box);
  const width = size?.width ?? 0;
  const simSize = Math.max(160, Math.min(260, Math.floor(width * 0.24)));
  const detailWidth = Math.max(240, width - simSize - 12);
  const plotWidth = detailWidth - MARGIN.left - MARGIN.right;
  useEffect(() => {
    if (plotWidth > 0 && width > 0) post({ type: 'pdes/width', width: plotWidth });
  }, [plotWidth, width]);

  let body: ReactNode;
  if (shown && width > 0)
    body = <PdesPanelBody shown={shown} width={width} simSize={simSize} detailWidth={detailWidth} />;
  else if (unavailable) body = <StatusMessage title="No PDES analysis">{unavailable}</StatusMessage>;
  else if (error && !shown)
    body = (
      <div className="view-error">
        <ErrorPanel title="Could not analyse the PDES run" message={error} />
      </div>
    );
  else if (!shown) body = <StatusMessage title={progress?.message || 'Analysing the PDES run…'} busy />;
  return (
    <div className="pdes-app" ref={box}>
      {progress ? (
        <div className="pdes-progress" role="status" data-fraction={progress.fraction}>
          <div style={{ width: `${Math.round(progress.fraction * 100)}%` }} />
          <span>{progress.message}</span>
        </div>
      ) : null}
      {error && shown ? (
        <div className="view-banner">
          <ErrorPanel title="Could not update the PDES analysis" message={error} onDismiss={() => setError(null)} />
        </div>
      ) : null}
      {body}
    </div>
  );
}
