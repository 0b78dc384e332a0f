/**
 * The webview side of the host connection: the one `acquireVsCodeApi()` call (VS Code allows only
 * one per page), typed messaging in both directions and persisted UI state.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FromWebview, ToWebview, ViewName } from '../../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState<T>(state: T): T;
}

declare global {
  // Injected by VS Code into every webview (and faked by the screenshot script).
  function acquireVsCodeApi(): VsCodeApi;
}

let api: VsCodeApi | undefined;

/** The VS Code API, acquired on first use. Outside VS Code a logging stand-in keeps the UI usable. */
function vscode(): VsCodeApi {
  if (api) return api;
  if (typeof acquireVsCodeApi === 'function') {
    api = acquireVsCodeApi();
  } else {
    let state: unknown;
    api = {
      postMessage: message => console.info('[hpc-lens webview] →host', message),
      getState: () => state,
      setState: s => (state = s),
    };
  }
  return api;
}

/** Sends a message to the extension host. */
export function postMessage(message: FromWebview): void {
  vscode().postMessage(message);
}

/** The persisted state of all views, keyed by view name (survives the panel being hidden). */
type PersistedState = Partial<Record<ViewName, unknown>>;

/** State a view persisted earlier with `setViewState`, if any. */
export function getViewState<T>(view: ViewName): T | undefined {
  const all = vscode().getState() as PersistedState | undefined;
  return all?.[view] as T | undefined;
}

/** Persists `state` for `view`, keeping other views' state. */
export function setViewState<T>(view: ViewName, state: T): void {
  const all = (vscode().getState() as PersistedState | undefined) ?? {};
  vscode().setState({ ...all, [view]: state });
}

// A record, not a list, so adding a message type to the protocol fails to compile until it is listed here.
const TO_WEBVIEW_TYPE_LIST: Record<ToWebview['type'], true> = {
  sankey: true,
  error: true,
  simulateClick: true,
  highlight: true,
  'callflow/nodeMetrics': true,
  'callflow/simulate': true,
  'timeline/init': true,
  'timeline/tiles': true,
  'timeline/eventDetails': true,
  'timeline/windowStats': true,
  'timeline/highlight': true,
  'timeline/rows': true,
  'timeline/overlayWindow': true,
  'timeline/unavailable': true,
  'timeline/simulate': true,
  'ensemble/graph': true,
  'ensemble/detail': true,
  'ensemble/simulate': true,
  'ensemble/panes': true,
};
const TO_WEBVIEW_TYPES = new Set(Object.keys(TO_WEBVIEW_TYPE_LIST));

/** Whether `data` looks like a message of the protocol (the page may receive others). */
export function isToWebview(data: unknown): data is ToWebview {
  return (
    typeof data === 'object' &&
    data !== null &&
    TO_WEBVIEW_TYPES.has((data as { type?: unknown }).type as ToWebview['type'])
  );
}

/**
 * Calls `handler` for every protocol message from the host while the component is mounted. The
 * listener is installed once; the latest `handler` is always used.
 */
export function useHostMessages(handler: (message: ToWebview) => void): void {
  const ref = useRef(handler);
  useLayoutEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const listener = (event: MessageEvent): void => {
      if (isToWebview(event.data)) ref.current(event.data);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);
}
