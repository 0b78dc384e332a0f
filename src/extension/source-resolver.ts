import * as vscode from 'vscode';
import type { Profile } from '../analysis/model/profile';
import {
  basenameOf,
  isPseudoPath,
  mappingForAnswer,
  rankSuffixMatches,
  withMapping,
  type PathMapping,
} from '../analysis/source/path-mapping';
import type { AnalysisService } from '../service/analysis-service';
import { Setting } from './settings';

/** How a recorded path was placed here, or why it was not. */
export type Resolution =
  | { kind: 'exact' | 'mapped' | 'suffix' | 'remembered'; uri: vscode.Uri }
  | { kind: 'ambiguous'; candidates: vscode.Uri[] }
  | { kind: 'missing' };

/** A recorded file of a profile that has no unique file here. */
export interface UnresolvedFile {
  recorded: string;
  resolution: Extract<Resolution, { kind: 'ambiguous' | 'missing' }>;
}

const REMEMBERED_KEY = 'hpcLens.rememberedSources';
const PATH_MAPPINGS = `hpcLens.${Setting.pathMappings}`;
const SEARCH_ROOTS = `hpcLens.${Setting.sourceSearchRoots}`;

/**
 * Maps file paths recorded in a profile (often absolute paths on the cluster where the program was
 * built or run) onto files that exist here, in this order:
 *   1. the recorded path itself;
 *   2. `hpcLens.pathMappings` (prefix or /regex/ rewrites, applied in the analysis service: regexes
 *      are user patterns; the first rewritten path that exists);
 *   3. the workspace file, or file under `hpcLens.sourceSearchRoots`, sharing the longest run of
 *      trailing path components — when two share it, the answer is ambiguous and nothing is picked;
 *   4. an answer the user gave through "Locate file…" (kept in workspace state).
 * Files are checked through `vscode.workspace.fs`, with the workspace's scheme and authority, so
 * this works where the extension runs next to the data (Remote SSH, containers, WSL). Results are
 * cached per recorded path until the settings, the workspace folders or a remembered answer change,
 * or a file of the same name appears or is opened (a missing answer) or the answer's file is deleted.
 */
/** How long file creations and deletions are gathered before stale answers are dropped. */
const FILE_EVENT_DELAY_MS = 300;

/** What happened to a file that may change how recorded paths resolve. */
type FileEvent = 'created' | 'opened' | 'deleted';

export class SourceResolver implements vscode.Disposable {
  private readonly cache = new Map<string, Promise<Resolution>>();
  /** Recorded paths waiting for their mapped candidates: asked of the service together, once per tick. */
  private batch: Map<string, ((candidates: string[]) => void)[]> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the cache was dropped because the way paths resolve changed. */
  readonly onDidChange = this.changed.event;
  /** Problems with `hpcLens.pathMappings` (bad entries are skipped). */
  mappingErrors: string[] = [];
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly service: Pick<AnalysisService, 'mapPaths'>,
    private readonly memory?: vscode.Memento,
  ) {
    this.subs = [
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration(PATH_MAPPINGS) || e.affectsConfiguration(SEARCH_ROOTS)) this.reset();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    ];
    // A source that appears (checked out, generated, copied in) may be the one a profile names; one
    // that vanishes can no longer be shown. Only the answers that can change are dropped.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.subs.push(
      watcher,
      watcher.onDidCreate(uri => this.filesChanged(uri, 'created')),
      watcher.onDidDelete(uri => this.filesChanged(uri, 'deleted')),
      // No watcher sees a search root outside the workspace, and watching fails on many clusters (NFS,
      // inotify limits on login nodes): a file the user opens is a fresh look at a missing one's name.
      vscode.workspace.onDidOpenTextDocument(doc => {
        if (doc.uri.scheme === (vscode.workspace.workspaceFolders?.[0]?.uri.scheme ?? 'file'))
          this.filesChanged(doc.uri, 'opened');
      }),
    );
  }

  /** Files created, opened or deleted since the last drop of stale answers (gathered: a checkout creates many). */
  private pendingFiles: { uri: vscode.Uri; how: FileEvent }[] = [];
  private pendingTimer: NodeJS.Timeout | undefined;

  private filesChanged(uri: vscode.Uri, how: FileEvent): void {
    this.pendingFiles.push({ uri, how });
    this.pendingTimer ??= setTimeout(() => void this.dropStaleAnswers(), FILE_EVENT_DELAY_MS);
  }

  /** Drops cached answers the created or deleted files change: a missing or ambiguous one of the same name, one that was that file. */
  private async dropStaleAnswers(): Promise<void> {
    this.pendingTimer = undefined;
    const files = this.pendingFiles;
    this.pendingFiles = [];
    const names = (how: FileEvent) => new Set(files.filter(f => f.how === how).map(f => basenameOf(f.uri.path)));
    const created = names('created');
    // An opened file is looked for again only where nothing was found: opening one of an ambiguous
    // name's known candidates would otherwise search again each time.
    const opened = names('opened');
    const deleted = new Set(files.filter(f => f.how === 'deleted').map(f => f.uri.toString()));
    let dropped = false;
    for (const [recorded, answer] of [...this.cache]) {
      const r = await answer;
      const name = basenameOf(recorded);
      const stale =
        ((r.kind === 'missing' || r.kind === 'ambiguous') && created.has(name)) ||
        (r.kind === 'missing' && opened.has(name)) ||
        ('uri' in r && deleted.has(r.uri.toString()));
      if (stale && this.cache.get(recorded) === answer) {
        this.cache.delete(recorded);
        dropped = true;
      }
    }
    if (dropped) this.changed.fire();
  }

  clear(): void {
    this.cache.clear();
  }

  /** Drops every cached answer and tells listeners (the overlays re-derive). */
  reset(): void {
    this.clear();
    this.changed.fire();
  }

  /** The local file for a recorded path, or null when it is missing or ambiguous. */
  async resolve(recorded: string): Promise<vscode.Uri | null> {
    const r = await this.resolution(recorded);
    return 'uri' in r ? r.uri : null;
  }

  resolution(recorded: string): Promise<Resolution> {
    let r = this.cache.get(recorded);
    if (!r) this.cache.set(recorded, (r = this.lookup(recorded)));
    return r;
  }

  /** The distinct recorded files of `profile` that do not resolve uniquely, sorted by path. */
  async unresolved(profile: Profile): Promise<UnresolvedFile[]> {
    const out: UnresolvedFile[] = [];
    await Promise.all(
      [...recordedFiles(profile)].map(async recorded => {
        const resolution = await this.resolution(recorded);
        if (resolution.kind === 'ambiguous' || resolution.kind === 'missing') out.push({ recorded, resolution });
      }),
    );
    return out.sort((a, b) => a.recorded.localeCompare(b.recorded));
  }

  /**
   * Remembers that `recorded` is `chosen` here: a `{from, to}` mapping in the workspace settings
   * (folder to folder when the names agree, so siblings resolve too) and the exact answer in
   * workspace state. Returns the mapping written.
   */
  async remember(recorded: string, chosen: vscode.Uri): Promise<PathMapping> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const mapping = mappingForAnswer(recorded, chosen.path, folder?.uri.path);
    const cfg = vscode.workspace.getConfiguration('hpcLens');
    const target = folder ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    const inspected = cfg.inspect<PathMapping[]>(Setting.pathMappings);
    const current = (folder ? inspected?.workspaceValue : inspected?.globalValue) ?? [];
    if (this.memory) {
      const remembered = {
        ...this.memory.get<Record<string, string>>(REMEMBERED_KEY, {}),
        [recorded]: chosen.toString(),
      };
      await this.memory.update(REMEMBERED_KEY, remembered);
    }
    await cfg.update(Setting.pathMappings, withMapping(Array.isArray(current) ? current : [], mapping), target);
    this.reset();
    return mapping;
  }

  /** The paths `hpcLens.pathMappings` rewrites `recorded` to, most specific first. */
  private mapped(recorded: string): Promise<string[]> {
    const raw = vscode.workspace.getConfiguration('hpcLens').get<unknown>(Setting.pathMappings);
    if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
      this.mappingErrors = [];
      return Promise.resolve([]);
    }
    if (!this.batch) {
      const batch = (this.batch = new Map());
      setImmediate(() => void this.flush(batch, raw));
    }
    const batch = this.batch;
    return new Promise(resolve => {
      const waiting = batch.get(recorded);
      if (waiting) waiting.push(resolve);
      else batch.set(recorded, [resolve]);
    });
  }

  private async flush(batch: Map<string, ((candidates: string[]) => void)[]>, raw: unknown): Promise<void> {
    if (this.batch === batch) this.batch = undefined;
    const paths = [...batch.keys()];
    const variables: Record<string, string> = {};
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders[0]) variables.workspaceFolder = folders[0].uri.path;
    for (const f of folders) variables[`workspaceFolder:${f.name}`] = f.uri.path;
    let candidates: string[][];
    try {
      const r = await this.service.mapPaths({ paths, mappings: raw, variables });
      candidates = r.candidates;
      this.mappingErrors = r.errors;
    } catch (e) {
      // The mappings are then not applied; the other ways of finding a file still work.
      candidates = paths.map(() => []);
      this.mappingErrors = [`hpcLens.pathMappings could not be applied: ${(e as Error).message}`];
    }
    paths.forEach((p, k) => batch.get(p)!.forEach(done => done(candidates[k] ?? [])));
  }

  private async lookup(recorded: string): Promise<Resolution> {
    if (isPseudoPath(recorded)) return { kind: 'missing' };
    const normalized = recorded.replace(/\\/g, '/');
    if (isAbsolute(normalized)) {
      const direct = here(normalized);
      if (await isFile(direct)) return { kind: 'exact', uri: direct };
    }
    for (const mapped of await this.mapped(recorded)) {
      const uri = here(mapped);
      if (await isFile(uri)) return { kind: 'mapped', uri };
    }
    const suffix = await this.suffixMatch(recorded);
    if (suffix.kind !== 'missing') return suffix;
    const remembered = this.memory?.get<Record<string, string>>(REMEMBERED_KEY, {})[recorded];
    if (remembered) {
      const uri = vscode.Uri.parse(remembered);
      if (await isFile(uri)) return { kind: 'remembered', uri };
    }
    return { kind: 'missing' };
  }

  private async suffixMatch(recorded: string): Promise<Resolution> {
    const base = basenameOf(recorded);
    if (!base) return { kind: 'missing' };
    const glob = `**/${escapeGlob(base)}`;
    const candidates = await vscode.workspace.findFiles(glob, '**/node_modules/**', 200);
    const roots = vscode.workspace.getConfiguration('hpcLens').get<string[]>(Setting.sourceSearchRoots, []);
    for (const root of roots) {
      candidates.push(...(await vscode.workspace.findFiles(new vscode.RelativePattern(here(root), glob), null, 200)));
    }
    const byPath = new Map(candidates.map(c => [c.path, c]));
    const match = rankSuffixMatches(recorded, [...byPath.keys()]);
    switch (match.kind) {
      case 'unique':
        return { kind: 'suffix', uri: byPath.get(match.path)! };
      case 'ambiguous':
        return { kind: 'ambiguous', candidates: match.paths.map(p => byPath.get(p)!) };
      default:
        return { kind: 'missing' };
    }
  }

  dispose(): void {
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.subs.forEach(s => s.dispose());
    this.changed.dispose();
  }
}

/** Each distinct file path recorded (`<unknown file>` and the like left out) on a node of the profile's call tree. */
export function recordedFiles(profile: Profile): Set<string> {
  const files = new Set<string>();
  const tree = profile.tree;
  for (let i = 0; i < tree.size; i++) {
    const f = tree.file(i);
    if (f && !isPseudoPath(f)) files.add(f);
  }
  return files;
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:\//.test(p);
}

/** A path on the machine the workspace lives on (same scheme and authority as its first folder). */
function here(p: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const normalized = p.replace(/\\/g, '/');
  if (!folder || folder.scheme === 'file') return vscode.Uri.file(normalized);
  return folder.with({
    path: /^[A-Za-z]:\//.test(normalized) ? `/${normalized}` : normalized,
    query: '',
    fragment: '',
  });
}

async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

function escapeGlob(s: string): string {
  return s.replace(/[[\]{}*?]/g, c => `[${c}]`);
}
