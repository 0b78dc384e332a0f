/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The Sankey view as mounted in the webview: talks to the host (ready → sankey/error → rendered,
 * openSource on click), persists the last data so a re-shown panel draws at once, and shows the
 * loading and error states around `SankeyView`.
 */
import { useCallback, useEffect, useState } from 'react';
import type { SankeyData } from '../../../../src/shared/protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { getViewState, postMessage, setViewState, useHostMessages } from '../../vscode-api';
import { SankeyView } from './sankey-view';
import type { SourceEntry } from './sankey-view';

interface SankeyState { data?: SankeyData }

export function SankeyApp() {
  const [data, setData] = useState<SankeyData | null>(() => getViewState<SankeyState>('sankey')?.data ?? null);
  const [error, setError] = useState<string | null>(null);
  const [revealedIds, setRevealedIds] = useState<string[] | undefined>(undefined);

  useHostMessages(message => {
    switch (message.type) {
      case 'sankey':
        setData(message.data);
        setError(null);
        setRevealedIds(undefined); // marks belong to the graph they were asked for
        setViewState<SankeyState>('sankey', { data: message.data });
        break;
      case 'error':
        setError(message.message);
        break;
      case 'highlight':
        setRevealedIds(message.nodeIds);
        break;
      case 'simulateClick': {
        // Automation: a real DOM click on the node, so the whole click path is exercised.
        const el = [...document.querySelectorAll<SVGElement>('[data-node]')].find(e => e.dataset['node'] === message.nodeId);
        if (el) el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        else postMessage({ type: 'log', level: 'error', message: `simulateClick: no node ${message.nodeId}` });
        break;
      }
    }
  });
  // The listener is installed (effects run in order): ask the host for data.
  useEffect(() => postMessage({ type: 'ready', view: 'sankey' }), []);

  const onRendered = useCallback(({ nodeCount, linkCount }: { nodeCount: number; linkCount: number }) => {
    postMessage({ type: 'rendered', view: 'sankey', nodeCount, linkCount });
  }, []);
  const onRevealed = useCallback((nodeIds: string[]) => postMessage({ type: 'highlighted', view: 'sankey', nodeIds }), []);
  const onOpenSource = useCallback((entry: SourceEntry) => {
    postMessage({ type: 'openSource', file: entry.file, line: entry.line, name: entry.name });
  }, []);

  if (!data) {
    return error
      ? <div className="view-error"><ErrorPanel title="Could not show the call graph" message={error} /></div>
      : <StatusMessage title="Loading call graph…" busy />;
  }
  // An error after data arrived (e.g. switching metric failed): say so above the last graph.
  return (
    <div className="view-stack">
      {error ? (
        <div className="view-banner">
          <ErrorPanel title="Could not update the call graph" message={error} onDismiss={() => setError(null)} />
        </div>
      ) : null}
      <SankeyView data={data} onRendered={onRendered} onOpenSource={onOpenSource} revealedIds={revealedIds} onRevealed={onRevealed} />
    </div>
  );
}
