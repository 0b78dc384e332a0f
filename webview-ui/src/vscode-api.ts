/**
 * The webview side of the host connection: the one `acquireVsCodeApi()` call (VS Code allows only
 * one per page), typed messaging in both directions and persisted UI state. Each view speaks its
 * own protocol (src/shared/*-protocol.ts); these helpers are generic over it.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { CommonViewToHost, ViewName } from '../../src/shared/webview-protocol';

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

/** Sends a message to the extension host: one of the view's own protocol, or a common one. */
export function postMessage<M extends { type: string }>(message: M | CommonViewToHost): void {
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

/** Whether `data` is a message of a protocol whose host → view types are `types` (the page may receive others). */
export function isMessageOf<M extends { type: string }>(
  types: Readonly<Record<M['type'], true>>,
  data: unknown,
): data is M {
  return (
    typeof data === 'object' &&
    data !== null &&
    Object.prototype.hasOwnProperty.call(types, (data as { type?: unknown }).type as string)
  );
}

/**
 * Calls `handler` for every message of the view's protocol (its host → view `types`) while the
 * component is mounted. The listener is installed once; the latest `handler` is always used.
 */
export function useHostMessages<M extends { type: string }>(
  types: Readonly<Record<M['type'], true>>,
  handler: (message: M) => void,
): void {
  const ref = useRef(handler);
  useLayoutEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const listener = (event: MessageEvent): void => {
      if (isMessageOf<M>(types, event.data)) ref.current(event.data);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [types]);
}
