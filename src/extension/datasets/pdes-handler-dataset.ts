import * as vscode from 'vscode';
import type { HandlerActivity } from '../../analysis/pdes/handlers';
import type { PdesRunSummary, SelectionActivity } from '../../analysis/pdes/panel-views';
import { formatCount, formatShare } from '../../analysis/stats/format';
import { md } from '../../analysis/stats/summary-export';
import type { AnalysisService, OpenedProfile } from '../../service/analysis-service';
import { Dataset, type LensContent } from './dataset';
import type { SourceResolver } from '../source-resolver';
import type { SystemDatasetFacts } from './dataset-summary';

/** The command a handler CodeLens runs: opens the LP type's other handler (forward ↔ reverse). */
export const OPEN_PDES_HANDLER = 'hpcLens.pdes.openHandler';

/** Which of the selection's handlers a CodeLens click opens. */
export interface OpenHandlerArgs {
  lpType: string;
  which: 'forward' | 'reverse';
}

/**
 * A PDES run as the editor shows it, whoever selects its entities: its editor profile holds the
 * model's event handlers per PE (the PDES system's editor-profile.ts), so heat and hovers work on
 * the model's source, and the CodeLens above each handler says how many events the LPs of the
 * selected entities processed and rolled back there; a click opens the LP type's other handler
 * (forward ↔ reverse). The Datasets view lists its PEs, KPs, LPs and events. A PDES run opened
 * from its folder follows the PDES panel's selection (PdesDataset); the run a live monitor follows
 * follows its change points' **Show** (PdesMonitorDataset).
 */
export abstract class PdesHandlerDataset extends Dataset {
  readonly kind = 'pdes';
  private activity: SelectionActivity | undefined;
  protected asked = 0;

  constructor(
    service: AnalysisService,
    opened: OpenedProfile,
    uri: vscode.Uri,
    readonly run: PdesRunSummary,
  ) {
    super(service, opened, uri);
  }

  /** Asks the system for the selection's handler activity (setActivity); the CodeLenses follow. */
  abstract refreshActivity(): Promise<void>;

  /** The selection's handler activity, for the CodeLenses: asked here while no panel answers it. */
  protected override async afterDerive(_resolver: SourceResolver): Promise<void> {
    await this.refreshActivity();
  }

  /** The activity of the selection (the panel's answer, or asked here); the CodeLenses follow it. */
  setActivity(activity: SelectionActivity | undefined): void {
    this.asked++;
    this.activity = activity;
    // The handler CodeLenses follow: what the overlays show changed without a new derivation.
    this.overlaysChanged.fire();
  }

  /** What the handler CodeLenses show now (for tests and the panel). */
  get handlerActivity(): SelectionActivity | undefined {
    return this.activity;
  }

  /** The activity row of the LP type whose forward or reverse handler is `name`. */
  private handlerOf(name: string): { row: HandlerActivity; which: 'forward' | 'reverse' } | undefined {
    for (const row of this.activity?.rows ?? []) {
      if (row.handler?.forward === name) return { row, which: 'forward' };
      if (row.handler?.reverse === name) return { row, which: 'reverse' };
    }
    return undefined;
  }

  /** `all 128 KPs`, `12 of 128 KPs` — what the CodeLens counts over. */
  protected scopeText(): string {
    const s = this.activity!;
    const level = s.level.toUpperCase();
    return s.selected === s.total
      ? vscode.l10n.t('all {0} {1}s', formatCount(s.total), level)
      : vscode.l10n.t('{0} of {1} {2}s', formatCount(s.selected), formatCount(s.total), level);
  }

  override lens(fn: number): LensContent | undefined {
    const name = this.functions.names[fn]!;
    const found = this.handlerOf(name);
    if (!found) return undefined;
    const { row, which } = found;
    const processed = formatCount(row.eventsProcessed);
    const rb = row.eventsRolledBack;
    const share = rb !== null && row.eventsProcessed > 0 ? formatShare(rb / row.eventsProcessed) : null;
    const approx = row.rolledBackSource === 'KP samples' ? '≈' : '';
    const lps = vscode.l10n.t('{0} {1} LPs', formatCount(row.lps), row.lpType);
    const rolled =
      rb === null
        ? null
        : row.rolledBackSource === 'rollback trace'
          ? vscode.l10n.t('{0} rollback-causing events received', formatCount(rb))
          : vscode.l10n.t('{0}{1} rolled back', approx, formatCount(rb));
    const title =
      which === 'forward'
        ? `$(pulse) ${[vscode.l10n.t('{0} events processed', processed), rolled && share ? `${rolled} (${share})` : rolled, `${lps} · ${this.scopeText()}`].filter(Boolean).join(' · ')}`
        : `$(history) ${[rolled ? `${rolled}${share ? vscode.l10n.t(' · {0} of {1} processed', share, processed) : ''}` : vscode.l10n.t('no rollback counts in this run'), `${lps} · ${this.scopeText()}`].join(' · ')}`;
    const other = which === 'forward' ? row.handler?.reverse : row.handler?.forward;
    const sources = [
      vscode.l10n.t('events processed from {0}', row.processedSource),
      row.rolledBackSource ? vscode.l10n.t('rolled back from {0}', row.rolledBackSource) : null,
    ]
      .filter(Boolean)
      .join('; ');
    const tooltip = [
      vscode.l10n.t(
        '{0} ({1} handler of {2} in {3}): {4}.',
        name,
        which,
        row.lpType,
        this.name,
        which === 'forward' ? row.forwardTitle : (row.reverseTitle ?? row.forwardTitle),
      ),
      vscode.l10n.t('Counts: {0}{1}.', sources, row.wholeRun ? vscode.l10n.t(' (whole run)') : ''),
      other
        ? vscode.l10n.t('Click to open the {0} handler {1}.', which === 'forward' ? 'reverse' : 'forward', other)
        : vscode.l10n.t('Click to show the PDES analysis.'),
    ].join('\n');
    return {
      title,
      tooltip,
      command: other ? OPEN_PDES_HANDLER : 'hpcLens.showPdesAnalysis',
      arguments: other
        ? [{ lpType: row.lpType, which: which === 'forward' ? 'reverse' : 'forward' } satisfies OpenHandlerArgs]
        : [],
    };
  }

  /** Where an LP type's handler is in the editor profile: its recorded file and line (0 when unknown), and its name. */
  handlerLocation(
    lpType: string,
    which: 'forward' | 'reverse',
  ): { file: string; line: number; name: string } | undefined {
    const h = this.run.lpTypes.find(t => t.name === lpType)?.handler;
    const name = which === 'forward' ? h?.forward : h?.reverse;
    if (!name) return undefined;
    const tree = this.profile.tree;
    for (let i = 0; i < tree.size; i++)
      if (tree.name(i) === name && tree.module(i) === lpType && tree.file(i))
        return { file: tree.file(i)!, line: tree.line(i) ?? 0, name };
    return undefined;
  }

  override systemFacts(): SystemDatasetFacts {
    const r = this.run;
    const e = r.entities;
    const description = [
      vscode.l10n.t('{0} PEs', formatCount(e.pe)),
      vscode.l10n.t('{0} KPs', formatCount(e.kp)),
      vscode.l10n.t('{0} LPs', formatCount(e.lp)),
    ];
    if (r.totals) description.push(vscode.l10n.t('{0} events', formatCount(r.totals.eventsProcessed)));
    const tooltip = [vscode.l10n.t('**{0}** (ROSS{1})', md(r.program), r.dragonfly ? ' + CODES' : ''), ''];
    if (r.totals)
      tooltip.push(
        vscode.l10n.t(
          '{0} events processed · {1} rollbacks ({2} primary, {3} secondary)',
          formatCount(r.totals.eventsProcessed),
          formatCount(r.totals.rollbacks),
          formatCount(r.totals.primaryRollbacks),
          formatCount(r.totals.secondaryRollbacks),
        ),
        '',
      );
    const samples = Object.entries(r.samples).map(([mode, n]) => `${formatCount(n)} ${mode.toUpperCase()}`);
    if (samples.length) tooltip.push(vscode.l10n.t('Samples: {0}', samples.join(', ')), '');
    if (r.eventTrace)
      tooltip.push(
        vscode.l10n.t(
          'Event trace: {0} events ({1}){2}',
          formatCount(r.eventTrace.events),
          r.eventTrace.scope,
          r.eventTrace.sameProcessShare !== null
            ? vscode.l10n.t(', {0} within a PE', formatShare(r.eventTrace.sameProcessShare))
            : '',
        ),
        '',
      );
    if (r.links)
      tooltip.push(
        vscode.l10n.t(
          'Dragonfly links: {0} ({1} CN, {2} L, {3} G)',
          r.links.total,
          r.links.byType.CN,
          r.links.byType.L,
          r.links.byType.G,
        ),
        '',
      );
    const types = r.lpTypes.map(t => {
      const where = t.handler
        ? `\`${t.handler.forward}\`${t.found ? '' : vscode.l10n.t(' (source not found yet)')}`
        : vscode.l10n.t('no handler in hpcLens.pdes.handlers');
      return `- ${md(t.name)}: ${formatCount(t.lps)} LPs, ${where}`;
    });
    if (types.length) tooltip.push(vscode.l10n.t('LP types:'), '', ...types);
    for (const p of r.handlerProblems) tooltip.push('', `$(warning) ${md(p)}`);
    return { description, tooltip };
  }
}
