import * as vscode from 'vscode';
import { bestSuffixMatch } from '../analysis/model/path-match';

/**
 * Maps file paths recorded in a profile (often absolute paths on the machine where the program
 * was built or run) onto files that exist here: the path itself when it exists, else the workspace
 * file (or file under `hpcLens.sourceSearchRoots`) sharing the longest trailing run of path
 * components. Results are cached per profile path.
 */
export class SourceResolver {
  private readonly cache = new Map<string, Promise<vscode.Uri | null>>();

  clear(): void { this.cache.clear(); }

  resolve(recorded: string): Promise<vscode.Uri | null> {
    let r = this.cache.get(recorded);
    if (!r) this.cache.set(recorded, (r = this.lookup(recorded)));
    return r;
  }

  private async lookup(recorded: string): Promise<vscode.Uri | null> {
    const direct = vscode.Uri.file(recorded);
    if (await exists(direct)) return direct;
    const base = recorded.split(/[\\/]/).pop();
    if (!base) return null;
    const candidates = await vscode.workspace.findFiles(`**/${escapeGlob(base)}`, '**/node_modules/**', 200);
    const roots = vscode.workspace.getConfiguration('hpcLens').get<string[]>('sourceSearchRoots', []);
    for (const root of roots) {
      const found = await vscode.workspace.findFiles(new vscode.RelativePattern(vscode.Uri.file(root), `**/${escapeGlob(base)}`), null, 200);
      candidates.push(...found);
    }
    const best = bestSuffixMatch(recorded, candidates.map(c => c.fsPath));
    return best === null ? null : candidates.find(c => c.fsPath === best) ?? null;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try { return (await vscode.workspace.fs.stat(uri)).type === vscode.FileType.File; } catch { return false; }
}

function escapeGlob(s: string): string {
  return s.replace(/[[\]{}*?]/g, c => `[${c}]`);
}
