/**
 * The test agent's messages: how extension-host tests (and only they) look into a webview and act
 * in it as a user would. The product never sends these; the host enables the agent in a page only
 * when the extension runs in test mode (ExtensionMode.Test), by marking the page's root element.
 *
 * Views state what they drew as `data-*` attributes on their elements (counts, ids, highlighted
 * nodes…); the agent reads those, so a test checks the same facts a Playwright screenshot script
 * reads from the DOM, and no view keeps a test-only code path.
 */

/** An element as the agent reports it: its `data-*` attributes (without the prefix), its text and its box. */
export interface ElementFacts {
  data: Record<string, string>;
  text: string;
  box: { x: number; y: number; width: number; height: number };
}

/** Host → view (test mode only). `id` pairs each request with its result. */
export type TestAgentRequest =
  /** The elements matching a CSS selector (at most `limit`, default 1000). */
  | { type: 'test/query'; id: number; selector: string; limit?: number }
  /** A real click (mousedown, mouseup, click) at the centre of the `index`-th match; `detail` 2 for a double click. */
  | {
      type: 'test/click';
      id: number;
      selector: string;
      index?: number;
      button?: 'left' | 'right';
      shiftKey?: boolean;
      detail?: number;
    }
  /** Sets the value of a select or input and fires `input` and `change`, as a user's choice does. */
  | { type: 'test/input'; id: number; selector: string; value: string }
  /** A key press dispatched to the matching element (or the document when the selector is empty). */
  | { type: 'test/key'; id: number; selector: string; key: string }
  /** Pointer events at points relative to the element's top-left corner, in order (a drag, a click at a place). */
  | { type: 'test/pointer'; id: number; selector: string; steps: PointerStep[] };

/** One pointer event of a gesture. */
export interface PointerStep {
  type: 'pointerdown' | 'pointermove' | 'pointerup' | 'click' | 'dblclick';
  x: number;
  y: number;
  shiftKey?: boolean;
}

/** View → host. */
export type TestAgentResult =
  { type: 'test/result'; id: number; elements: ElementFacts[] } | { type: 'test/result'; id: number; error: string };

export function isTestAgentResult(m: unknown): m is TestAgentResult {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'test/result';
}
