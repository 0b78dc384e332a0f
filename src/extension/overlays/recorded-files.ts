import type * as vscode from 'vscode';
import type { SourceResolver } from '../source-resolver';

/** A workspace file and the paths a profile records for it (several recorded paths can resolve to one file). */
export interface MappedFile {
  uri: vscode.Uri;
  recorded: string[];
}

/**
 * Maps the file paths a profile records onto workspace files through the SourceResolver (exact
 * path, pathMappings, trailing components, remembered answers), keyed by the file's URI string.
 * Paths that do not resolve are left out; the resolver lists them as unresolved.
 */
export async function resolveRecordedFiles(
  resolver: SourceResolver,
  recorded: Iterable<string>,
): Promise<Map<string, MappedFile>> {
  const out = new Map<string, MappedFile>();
  await Promise.all(
    [...new Set(recorded)].map(async rec => {
      const uri = await resolver.resolve(rec);
      if (!uri) return;
      const key = uri.toString();
      const f = out.get(key);
      if (f) f.recorded.push(rec);
      else out.set(key, { uri, recorded: [rec] });
    }),
  );
  for (const f of out.values()) f.recorded.sort();
  return out;
}
