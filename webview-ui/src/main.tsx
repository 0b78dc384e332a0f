/** @jsxRuntime automatic */
/**
 * Entry of the single webview bundle. The host page names the view to show in `data-view` on
 * `#root`; views are looked up by that name, so a new view is one more entry in `views`.
 */
import { createRoot } from 'react-dom/client';
import type { ComponentType } from 'react';
import type { ViewName } from '../../src/shared/webview-protocol';
import { ErrorPanel } from './components/error-panel';
import { startTestAgent } from './test-agent';
import { postMessage } from './vscode-api';
import { EnsembleApp } from './views/ensemble/ensemble-app';
import { CallflowApp } from './views/callflow/callflow-app';
import { TimelineApp } from './views/timeline/timeline-app';
import { DmvApp } from './views/dmv/dmv-app';
import { MemoryApp } from './views/memory/memory-app';
import { TraceAnalysisApp } from './views/trace-analysis/trace-analysis-app';
import { PdesMonitorApp } from './views/pdes-monitor/monitor-app';
import { PdesApp } from './views/pdes/pdes-app';
import './styles.css';

const views: Record<ViewName, ComponentType> = {
  callflow: CallflowApp,
  timeline: TimelineApp,
  ensemble: EnsembleApp,
  dmv: DmvApp,
  memory: MemoryApp,
  'trace-analysis': TraceAnalysisApp,
  'pdes-monitor': PdesMonitorApp,
  pdes: PdesApp,
};

function isViewName(name: string | undefined): name is ViewName {
  return name !== undefined && Object.prototype.hasOwnProperty.call(views, name);
}

// Report uncaught failures to the host's log instead of failing silently.
window.addEventListener('error', e => {
  postMessage({ type: 'log', level: 'error', message: `webview: ${e.message} (${e.filename}:${e.lineno})` });
});
window.addEventListener('unhandledrejection', e => {
  postMessage({ type: 'log', level: 'error', message: `webview: unhandled rejection: ${String(e.reason)}` });
});

const rootElement = document.getElementById('root');
// Extension-host tests only: the host enables the agent in test mode.
if (rootElement) startTestAgent(rootElement, postMessage);
if (rootElement) {
  const name = rootElement.dataset.view;
  const View = isViewName(name) ? views[name] : null;
  createRoot(rootElement).render(
    View ? (
      <View />
    ) : (
      <div className="view-error">
        <ErrorPanel
          title="Unknown view"
          message={`This webview has no view named “${name ?? ''}”. Known views: ${Object.keys(views).join(', ')}.`}
        />
      </div>
    ),
  );
  if (!View) postMessage({ type: 'log', level: 'error', message: `webview: unknown view ${JSON.stringify(name)}` });
}
