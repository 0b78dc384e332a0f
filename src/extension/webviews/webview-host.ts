import * as vscode from 'vscode';
import {
  isTestAgentResult,
  type ElementFacts,
  type PointerStep,
  type TestAgentRequest,
  type TestAgentResult,
} from '../../shared/test-protocol';
import type { CommonViewToHost, ViewName } from '../../shared/webview-protocol';
import { createViewPanel } from './webview-html';

/** What every panel needs from the extension: where its files are, where to log, and whether tests drive it. */
export interface WebviewEnvironment {
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  /** The extension runs its tests (ExtensionMode.Test): the page gets the test agent. */
  testMode: boolean;
}

export interface WebviewHostOptions<FromView> {
  viewType: string;
  title: string;
  view: ViewName;
  iconPath?: vscode.Uri;
  /** A message of the view's own protocol (`ready` and `log` are handled here). */
  onMessage(message: FromView): void | Promise<void>;
  /** The page is (again) listening; `first` is false when it was reloaded, and then needs its state again. */
  onReady?(first: boolean): void | Promise<void>;
  /** The user closed the panel. */
  onDidDispose?(): void;
}

/**
 * One webview panel and its page, for any view: creates the panel beside the editor (kept alive
 * while hidden, strict CSP), queues messages until the page says it is ready (a newer message of a
 * type replaces a queued older one: only the latest graph or state matters), routes the page's
 * messages to the panel's handler, and logs the page's errors. Panels own their state and
 * computations; this owns the panel's lifecycle and messaging, typed by the view's protocol.
 */
export class WebviewHost<ToView extends { type: string }, FromView extends { type: string }>
  implements vscode.Disposable
{
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private readyCount = 0;
  private queue: ToView[] = [];
  private panelSubs: vscode.Disposable[] = [];
  private generation = 0;
  private agent: TestAgentClient | undefined;

  constructor(
    private readonly env: WebviewEnvironment,
    private readonly options: WebviewHostOptions<FromView>,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** The page has loaded and listens. */
  get isReady(): boolean {
    return this.ready;
  }

  set title(title: string) {
    if (this.panel) this.panel.title = title;
  }

  /**
   * Shows the panel: creates it beside the active editor, or reveals it — beside the editor when it
   * shares the editor's column (a panel over the code it explains would hide it). True when created.
   */
  show(): boolean {
    if (this.panel) {
      const sharesColumn =
        this.panel.viewColumn !== undefined && this.panel.viewColumn === vscode.window.activeTextEditor?.viewColumn;
      this.panel.reveal(sharesColumn ? vscode.ViewColumn.Beside : undefined, true);
      return false;
    }
    // The page's `ready` cannot arrive before this tick ends, so the listeners below still see it.
    const panel = createViewPanel(this.env.extensionUri, this.options.viewType, this.options.title, this.options.view, {
      testAgent: this.env.testMode,
    });
    if (this.options.iconPath) panel.iconPath = this.options.iconPath;
    this.panel = panel;
    this.ready = false;
    this.readyCount = 0;
    if (this.env.testMode) this.agent = new TestAgentClient(m => this.postWhenReady(m));
    this.panelSubs = [
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidDispose(() => this.closed()),
    ];
    return true;
  }

  /** Sends a message to the page, or queues it until the page is ready. */
  post(message: ToView): void {
    if (!this.panel) return;
    if (this.ready) {
      void this.panel.webview.postMessage(message);
      return;
    }
    const i = this.queue.findIndex(q => q.type === message.type);
    if (i >= 0) this.queue[i] = message;
    else this.queue.push(message);
  }

  /** Test agent requests: sent once the page listens, never merged with others. */
  private agentQueue: TestAgentRequest[] = [];
  private postWhenReady(m: TestAgentRequest): void {
    if (this.ready) void this.panel?.webview.postMessage(m);
    else this.agentQueue.push(m);
  }

  /** Starts a computation whose result only the latest one may post: compare with {@link isCurrent}. */
  begin(): number {
    return ++this.generation;
  }

  isCurrent(ticket: number): boolean {
    return ticket === this.generation && this.panel !== undefined;
  }

  /** The page's test agent (test mode only): reads `data-*` facts and acts as a user in the page. */
  get testAgent(): TestAgentClient | undefined {
    return this.agent;
  }

  dispose(): void {
    this.panel?.dispose();
    this.closed();
  }

  private receive(m: unknown): void {
    if (isTestAgentResult(m)) {
      this.agent?.settle(m);
      return;
    }
    const message = m as CommonViewToHost | FromView;
    if (message.type === 'ready') {
      this.ready = true;
      this.readyCount++;
      const queued = this.queue;
      this.queue = [];
      for (const q of queued) void this.panel?.webview.postMessage(q);
      const agentQueued = this.agentQueue;
      this.agentQueue = [];
      for (const q of agentQueued) void this.panel?.webview.postMessage(q);
      void this.options.onReady?.(this.readyCount === 1);
      return;
    }
    if (message.type === 'log') {
      const { level, message: text } = message as Extract<CommonViewToHost, { type: 'log' }>;
      if (level === 'error') this.env.log.error(`[${this.options.view}] ${text}`);
      else this.env.log.info(`[${this.options.view}] ${text}`);
      return;
    }
    Promise.resolve(this.options.onMessage(message as FromView)).catch((e: Error) =>
      this.env.log.error(`${this.options.view} ${message.type}: ${e.message}`),
    );
  }

  private closed(): void {
    if (!this.panel) return;
    this.panel = undefined;
    this.ready = false;
    this.queue = [];
    this.agentQueue = [];
    this.agent?.dispose();
    this.agent = undefined;
    this.panelSubs.forEach(s => s.dispose());
    this.panelSubs = [];
    this.options.onDidDispose?.();
  }
}

type AgentAction = TestAgentRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

const AGENT_TIMEOUT_MS = 20000;

/** The host side of the page's test agent: requests by id, answered by `test/result`. */
export class TestAgentClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(e: ElementFacts[]): void; reject(e: Error): void }>();

  constructor(private readonly send: (m: TestAgentRequest) => void) {}

  /** The elements matching a CSS selector, with their `data-*` facts, text and box. */
  query(selector: string, limit?: number): Promise<ElementFacts[]> {
    return this.request({ type: 'test/query', selector, ...(limit !== undefined ? { limit } : {}) });
  }

  click(
    selector: string,
    options: Omit<Extract<AgentAction, { type: 'test/click' }>, 'type' | 'selector'> = {},
  ): Promise<ElementFacts[]> {
    return this.request({ type: 'test/click', selector, ...options });
  }

  input(selector: string, value: string): Promise<ElementFacts[]> {
    return this.request({ type: 'test/input', selector, value });
  }

  key(selector: string, key: string): Promise<ElementFacts[]> {
    return this.request({ type: 'test/key', selector, key });
  }

  /** Pointer events at points relative to the element's top-left corner (a drag, a click at a place). */
  pointer(selector: string, steps: PointerStep[]): Promise<ElementFacts[]> {
    return this.request({ type: 'test/pointer', selector, steps });
  }

  settle(m: TestAgentResult): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if ('error' in m) p.reject(new Error(`test agent: ${m.error}`));
    else p.resolve(m.elements);
  }

  dispose(): void {
    for (const p of this.pending.values()) p.reject(new Error('test agent: the panel was closed'));
    this.pending.clear();
  }

  private request(action: AgentAction): Promise<ElementFacts[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A page that never answers (it was closed, or is still loading) fails the request instead of hanging the test.
      const timer = setTimeout(() => {
        if (this.pending.delete(id))
          reject(new Error(`test agent: no answer to ${action.type} within ${AGENT_TIMEOUT_MS} ms`));
      }, AGENT_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: e => {
          clearTimeout(timer);
          resolve(e);
        },
        reject: e => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ ...action, id } as TestAgentRequest);
    });
  }
}
