import * as vscode from 'vscode';
import type { SankeyData, ToWebview } from '../shared/protocol';
import { registerCommands } from './commands/register-commands';
import { registerSourceCommands } from './commands/source-commands';
import { ProfileCodeLensProvider } from './overlays/code-lens';
import { HeatDecorations, type DiffMarks, type HeatLine } from './overlays/heat-decorations';
import { ProfileHoverProvider } from './overlays/profile-hover';
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
  /** The heat-marked lines of the document (line, level, after-line text when shown), as last applied. */
  heatLines(uri: vscode.Uri): readonly HeatLine[];
  /** The regression and improvement lines a diff dataset (Compare Two Profiles) marks in the document. */
  diffDecorations(uri: vscode.Uri): DiffMarks;
  sankey: {
    readonly data: SankeyData | undefined;
    readonly lastRender: RenderReport | undefined;
    nextRender(): Promise<RenderReport>;
    post(message: ToWebview): void;
  };
  /** The rows a side-bar view shows now (top level; a hot path's steps nest as children). */
  viewEntries(view: SideBarViewId): readonly AnalysisEntry[];
  /** How a recorded source path resolves here, and the active profile's files that do not resolve. */
  sources: {
    resolution(recorded: string): Promise<{ kind: string; uri?: string; candidates?: string[] }>;
    unresolved(): Promise<{ recorded: string; kind: string; candidates: string[] }[]>;
  };
}

export function activate(context: vscode.ExtensionContext): HpcLensApi {
  const log = vscode.window.createOutputChannel('HPC Lens', { log: true });
  const resolver = new SourceResolver(context.workspaceState);
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
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new ProfileHoverProvider(profiles)),
    resolver,
    ...registerSourceCommands({ profiles, resolver, navigator, log }),
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
    heatLines: uri => heat.marked.get(uri.toString()) ?? [],
    diffDecorations: uri => heat.diffMarked.get(uri.toString()) ?? { regressions: [], improvements: [] },
    sankey: {
      get data() { return sankey.currentData; },
      get lastRender() { return sankey.lastRender; },
      nextRender: () => sankey.nextRender(),
      post: m => sankey.post(m),
    },
    viewEntries: view => sideBar.providers.get(view)?.entries ?? [],
    sources: {
      resolution: async recorded => {
        const r = await resolver.resolution(recorded);
        return { kind: r.kind, uri: 'uri' in r ? r.uri.toString() : undefined, candidates: r.kind === 'ambiguous' ? r.candidates.map(c => c.toString()) : undefined };
      },
      unresolved: async () => {
        const lp = profiles.active;
        const list = lp ? await resolver.unresolved(lp.profile) : [];
        return list.map(u => ({ recorded: u.recorded, kind: u.resolution.kind, candidates: u.resolution.kind === 'ambiguous' ? u.resolution.candidates.map(c => c.toString()) : [] }));
      },
    },
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
