import * as vscode from 'vscode';
import { sankeyData } from '../../analysis/graph/sankey-data';
import type { FromWebview, SankeyData, ToWebview } from '../../shared/protocol';
import type { ProfileManager } from '../profile-manager';
import type { SourceNavigator } from '../source-navigator';
import { webviewHtml } from './webview-html';

export interface RenderReport { nodeCount: number; linkCount: number }

/**
 * The CallFlow-style Sankey of modules. One panel; it follows the active profile and metric, and a
 * click on a node opens the node's source.
 */
export class SankeyPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private data: SankeyData | undefined;
  private renderWaiters: ((r: RenderReport) => void)[] = [];
  private readonly subs: vscode.Disposable[];
  lastRender: RenderReport | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly profiles: ProfileManager,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs = [profiles.onDidChange(() => { if (this.panel) this.update(); })];
  }

  get currentData(): SankeyData | undefined { return this.data; }

  show(): void {
    if (!this.profiles.active) {
      void vscode.window.showInformationMessage('HPC Lens: open a profile first (HPC Lens: Open Profile…).');
      return;
    }
    if (this.panel) {
      this.panel.reveal(undefined, true);
      this.update();
      return;
    }
    const panel = vscode.window.createWebviewPanel('hpcLens.sankey', 'HPC Lens: Call Graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'sankey.svg');
    this.panel = panel;
    this.ready = false;
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m));
    panel.onDidDispose(() => { this.panel = undefined; this.ready = false; });
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'sankey', 'HPC Lens: Call Graph');
    this.update();
  }

  /** Resolves with the next render report from the webview. */
  nextRender(): Promise<RenderReport> {
    return new Promise(resolve => this.renderWaiters.push(resolve));
  }

  /** Sends a message as the host would (used by commands and by automation in tests). */
  post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  private update(): void {
    const lp = this.profiles.active;
    if (!lp) { this.panel?.dispose(); return; }
    this.data = sankeyData(lp.profile, lp.metric, lp.name);
    this.panel!.title = `HPC Lens: ${lp.name}`;
    if (this.ready) this.post({ type: 'sankey', data: this.data });
  }

  private onMessage(m: FromWebview): void {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (this.data) this.post({ type: 'sankey', data: this.data });
        break;
      case 'rendered': {
        this.lastRender = { nodeCount: m.nodeCount, linkCount: m.linkCount };
        const waiters = this.renderWaiters;
        this.renderWaiters = [];
        waiters.forEach(w => w(this.lastRender!));
        break;
      }
      case 'openSource':
        void this.navigator.open(m.file, m.line, m.name);
        break;
      case 'log':
        if (m.level === 'error') this.log.error(`[sankey] ${m.message}`); else this.log.info(`[sankey] ${m.message}`);
        break;
      default: {
        const unknown: never = m;
        this.log.warn(`unknown message from the Sankey webview: ${JSON.stringify(unknown)}`);
      }
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.panel?.dispose();
  }
}
