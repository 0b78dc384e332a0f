import * as vscode from 'vscode';
import type { SankeyData, ToWebview } from '../shared/protocol';
import { registerCommands } from './commands/register-commands';
import { ProfileCodeLensProvider } from './overlays/code-lens';
import { HeatDecorations } from './overlays/heat-decorations';
import { ProfileManager } from './profile-manager';
import { SourceNavigator } from './source-navigator';
import { SourceResolver } from './source-resolver';
import { StatusBar } from './status-bar';
import { registerSideBarViews, type SideBarViewId } from './views/side-bar-views';
import type { AnalysisEntry } from './views/analysis-tree';
import { SankeyPanel, type RenderReport } from './webviews/sankey-panel';

/** What `activate` returns: a small API for other extensions and for the integration tests. */
export interface HpcLensApi {
  /** Settles when the profiles listed in `hpcLens.openOnStartup` have been opened (or failed). */
  readonly startup: Promise<void>;
  open(uri: vscode.Uri): Promise<boolean>;
  readonly active: { name: string; format: string; nodes: number; contexts: number; metric: string; mappedFiles: number } | undefined;
  readonly lastError: string | undefined;
  /** Heat-decorated lines currently applied to the document. */
  decoratedLines(uri: vscode.Uri): number;
  sankey: {
    readonly data: SankeyData | undefined;
    readonly lastRender: RenderReport | undefined;
    nextRender(): Promise<RenderReport>;
    post(message: ToWebview): void;
  };
  /** The rows a side-bar view shows now (top level; a hot path's steps nest as children). */
  viewEntries(view: SideBarViewId): readonly AnalysisEntry[];
}

export function activate(context: vscode.ExtensionContext): HpcLensApi {
  const log = vscode.window.createOutputChannel('HPC Lens', { log: true });
  const resolver = new SourceResolver();
  const profiles = new ProfileManager(context.extensionUri, resolver, log);
  const navigator = new SourceNavigator(resolver);
  const lenses = new ProfileCodeLensProvider(profiles);
  const heat = new HeatDecorations(context.extensionUri, profiles);
  const sankey = new SankeyPanel(context.extensionUri, profiles, navigator, log);
  const status = new StatusBar(profiles);
  const sideBar = registerSideBarViews(profiles);
  context.subscriptions.push(
    log, profiles, navigator, lenses, heat, sankey, status,
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses),
    vscode.workspace.onDidChangeWorkspaceFolders(() => resolver.clear()),
    ...registerCommands({ profiles, sankey, navigator }),
    ...sideBar.disposables,
  );
  const startup = openOnStartup(profiles);
  return {
    startup,
    open: async uri => (await profiles.open(uri)) !== undefined,
    get active() {
      const lp = profiles.active;
      if (!lp) return undefined;
      return { name: lp.name, format: lp.profile.format, nodes: lp.profile.tree.size, contexts: lp.profile.contextCount, metric: lp.profile.metrics[lp.metric]!.name, mappedFiles: lp.files.size };
    },
    get lastError() { return profiles.lastError; },
    decoratedLines: uri => heat.applied.get(uri.toString()) ?? 0,
    sankey: {
      get data() { return sankey.currentData; },
      get lastRender() { return sankey.lastRender; },
      nextRender: () => sankey.nextRender(),
      post: m => sankey.post(m),
    },
    viewEntries: view => sideBar.providers.get(view)?.entries ?? [],
  };
}

/** Opens the profiles a workspace asks for in `hpcLens.openOnStartup` (e.g. the demo workspace). */
async function openOnStartup(profiles: ProfileManager): Promise<void> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const paths = vscode.workspace.getConfiguration('hpcLens', folder.uri).get<string[]>('openOnStartup', []);
    for (const p of paths) {
      const uri = p.startsWith('/') ? vscode.Uri.file(p) : vscode.Uri.joinPath(folder.uri, p);
      await profiles.open(uri);
    }
  }
}

export function deactivate(): void {}
