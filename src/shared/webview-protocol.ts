/**
 * What every HPC Lens webview shares with the extension host: the view names the single bundle can
 * render, and the messages every view sends or receives. Each view has its own protocol file
 * (callflow-protocol.ts, timeline-protocol.ts, ensemble-protocol.ts) with one union per direction.
 */

/** The views the single webview bundle can render, chosen by `data-view` on its root element. */
export type ViewName =
  'callflow' | 'timeline' | 'ensemble' | 'dmv' | 'memory' | 'trace-analysis' | 'pdes' | 'pdes-monitor';

/** View → host, from every view. */
export type CommonViewToHost =
  /** The page has loaded and listens: the host sends what it has queued. */
  | { type: 'ready'; view: ViewName }
  /** A message for the HPC Lens output channel (uncaught errors in the page). */
  | { type: 'log'; level: 'info' | 'error'; message: string };

/** Host → view: the computation behind the view failed; the view shows the message in place of its content. */
export interface ErrorMessage {
  type: 'error';
  message: string;
}

/** Protocol messages have a string `type`: how a webview tells them from other messages the page receives. */
export function hasMessageType(data: unknown): data is { type: string } {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}

/** For exhaustive `switch`es over a message union: the compiler fails when a case is missing. */
export function assertNever(x: never, what = 'message'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}
