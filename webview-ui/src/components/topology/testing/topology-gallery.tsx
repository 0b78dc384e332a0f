/** @jsxRuntime automatic */
/**
 * Test-only page for the topology component: scripts/screenshot-topology.ts bundles this file as its
 * own esbuild entry (it is not part of the product's webview bundle) and plays the host, sending
 * `gallery/show` with view data and answering drill-down requests the way a panel would (new data
 * with the group expanded or collapsed).
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { TopologyViewData } from '../../../../../src/shared/topology-protocol';
import { startTestAgent } from '../../../test-agent';
import { postMessage } from '../../../vscode-api';
import { TopologyView } from '../topology-view';
import '../../../styles.css';

/** Host → gallery. */
export interface GalleryShow {
  type: 'gallery/show';
  title: string;
  data: TopologyViewData;
}

/** Gallery → host (besides the page's own `log` messages). */
export type GalleryRequest =
  | { type: 'gallery/ready' }
  | { type: 'gallery/expand'; id: string }
  | { type: 'gallery/collapse'; id: string }
  | { type: 'gallery/select'; ids: string[] };

function Gallery() {
  const [shown, setShown] = useState<GalleryShow | null>(null);
  useEffect(() => {
    const listener = (e: MessageEvent) => {
      const m = e.data as GalleryShow | undefined;
      if (m && m.type === 'gallery/show') setShown(m);
    };
    window.addEventListener('message', listener);
    postMessage<GalleryRequest>({ type: 'gallery/ready' });
    return () => window.removeEventListener('message', listener);
  }, []);
  if (!shown) return <div className="topology-muted">waiting for data…</div>;
  const post = (m: GalleryRequest) => postMessage<GalleryRequest>(m);
  return (
    <div style={{ position: 'absolute', inset: 0, padding: 8, boxSizing: 'border-box' }}>
      <TopologyView
        data={shown.data}
        title={shown.title}
        onExpand={id => post({ type: 'gallery/expand', id })}
        onCollapse={id => post({ type: 'gallery/collapse', id })}
        onSelect={ids => post({ type: 'gallery/select', ids })}
      />
    </div>
  );
}

const root = document.getElementById('root');
// The script reads the view's facts through the test agent, as the extension's tests do.
if (root) startTestAgent(root, postMessage);
if (root) createRoot(root).render(<Gallery />);
