import type { PdesRunSummary } from '../../analysis/pdes/panel-views';
import type { ChangePointActivity } from '../../analysis/pdes/stream/monitor-run';
import type { L10n } from '../l10n-text';

/**
 * What the PDES monitor panel says under **Show**'s selection about the editor: the handlers that
 * got CodeLenses for the change point's entities (those whose LP type has handlers in
 * `hpcLens.pdes.handlers` and whose source was found), or why none did.
 */
export function showEditorNote(
  activity: ChangePointActivity | undefined,
  run: Pick<PdesRunSummary, 'lpTypes'>,
  datasetName: string,
  l10n: L10n,
): string {
  const rows = activity?.rows ?? [];
  if (!rows.length) return l10n.t('No handler CodeLenses: nothing says which LPs these entities hold.');
  const configured = rows.filter(r => r.handler);
  if (!configured.length)
    return l10n.t(
      'No handler CodeLenses: set the handlers of {0} in hpcLens.pdes.handlers.',
      rows.map(r => r.lpType).join(', '),
    );
  const found = new Set(run.lpTypes.filter(t => t.found).map(t => t.name));
  const shown = configured.filter(r => found.has(r.lpType));
  if (!shown.length)
    return l10n.t(
      'No handler CodeLenses: {0} was not found under the workspace folders or hpcLens.sourceSearchRoots.',
      [...new Set(configured.map(r => r.handler!.file))].join(', '),
    );
  const handlers = shown.flatMap(r => [r.handler!.forward, ...(r.handler!.reverse ? [r.handler!.reverse] : [])]);
  return l10n.t('CodeLens on {0} in {1}', handlers.join(', '), datasetName);
}
