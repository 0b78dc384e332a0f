/**
 * Messages between the extension host and the webviews, one union per direction. Both sides import
 * this file; it must stay free of `vscode` and of DOM types.
 */

/** The views the single webview bundle can render, chosen by `data-view` on its root element. */
export type ViewName = 'sankey';

/** A node of the module-level Sankey: one module (or a re-entry of it further down the call paths). */
export interface SankeyNodeData {
  /** Stable id within one graph (used by links). */
  id: string;
  /** Display name, e.g. `libstencil.so`. */
  label: string;
  /** Module the node stands for. */
  module: string;
  /** Inclusive value of the module's entry calls on this path position (metric unit). */
  inclusive: number;
  /** Exclusive value: the cost spent in the module itself. */
  exclusive: number;
  /** Inclusive share of the profile total, 0..1. */
  share: number;
  /** Max/mean imbalance of the inclusive value across execution contexts (1 = balanced). */
  imbalance: number;
  /** Hottest entry function of this node, with its source location when known (click target). */
  entry: { name: string; file: string | null; line: number | null };
}

export interface SankeyLinkData {
  source: string;
  target: string;
  /** Inclusive value that flows over the call edge(s) between the two modules. */
  value: number;
}

/** Level-of-detail Sankey data: aggregated by module, never the whole call tree. */
export interface SankeyData {
  title: string;
  metric: { name: string; unit: string };
  total: number;
  nodes: SankeyNodeData[];
  links: SankeyLinkData[];
}

/** Host → webview. */
export type ToWebview =
  | { type: 'sankey'; data: SankeyData }
  | { type: 'error'; message: string }
  /** Automation: dispatch a real click on the node with this id (used by the extension-host tests). */
  | { type: 'simulateClick'; nodeId: string };

/** Webview → host. */
export type FromWebview =
  | { type: 'ready'; view: ViewName }
  /** Sent after each render: what is on screen, so the host (and tests) can check it. */
  | { type: 'rendered'; view: ViewName; nodeCount: number; linkCount: number }
  | { type: 'openSource'; file: string; line: number | null; name: string }
  | { type: 'log'; level: 'info' | 'error'; message: string };
