import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChangePointActivity } from '../../analysis/pdes/stream/monitor-run';
import type { AnalysisService, OpenedSystem } from '../../service/analysis-service';
import { pdesHandlers } from '../settings';
import { PdesHandlerDataset } from './pdes-handler-dataset';

/**
 * The run a live PDES monitor follows, as the editor shows it (thesis §6.4: a change point notifies,
 * and **Show** leads to the model code): the monitor's editor profile holds the model's event
 * handlers, and the handler CodeLenses — the same as a PDES run's — count the events processed and
 * rolled back by the LPs of the shown change point's top PC1-loading entities over the segment it
 * starts. Show on a later change point moves them; the monitor panel owns the monitor, lists this
 * dataset while it runs and removes it when it closes.
 */
export class PdesMonitorDataset extends PdesHandlerDataset {
  /** The change point whose entities the CodeLenses count (null before the first Show). */
  private changePoint: number | null = null;
  /** Closed (by its panel, or in the Datasets view): the panel makes a new one for the next Show. */
  closed = false;

  private constructor(service: AnalysisService, opened: OpenedSystem<'pdesMonitor'>, uri: vscode.Uri) {
    super(service, { dataset: opened.dataset, ...opened.profile! }, uri, opened.opened.editor!);
  }

  /** The dataset of a started monitor, or undefined when the monitor has no editor profile (its run's LPs are unknown). */
  static of(service: AnalysisService, opened: OpenedSystem<'pdesMonitor'>): PdesMonitorDataset | undefined {
    if (!opened.profile || !opened.opened.editor) return undefined;
    return new PdesMonitorDataset(service, opened, vscode.Uri.file(opened.opened.source));
  }

  override get name(): string {
    return vscode.l10n.t('{0} (live)', path.basename(this.uri.fsPath));
  }

  /** What the CodeLenses show now: the shown change point's handler activity. */
  get shownActivity(): ChangePointActivity | undefined {
    return this.handlerActivity as ChangePointActivity | undefined;
  }

  /** The CodeLenses count this change point's entities from the next refresh on (a derivation refreshes). */
  follow(changePoint: number): void {
    this.changePoint = changePoint;
  }

  /** **Show** on a change point: the CodeLenses count its entities from now on. */
  async show(changePoint: number): Promise<ChangePointActivity | undefined> {
    this.follow(changePoint);
    await this.refreshActivity();
    return this.shownActivity;
  }

  async refreshActivity(): Promise<void> {
    const changePoint = this.changePoint;
    if (changePoint === null) return this.setActivity(undefined);
    const ticket = ++this.asked;
    try {
      const activity = await this.service.systemRequest<'pdesMonitor', 'handler-activity'>({
        dataset: this.handle,
        system: 'pdesMonitor',
        request: { kind: 'handler-activity', changePoint, handlers: pdesHandlers() },
      });
      if (ticket === this.asked) this.setActivity(activity ?? undefined);
    } catch {
      // The monitor stopped meanwhile: no handler lenses.
      if (ticket === this.asked) this.setActivity(undefined);
    }
  }

  /** `8 of 32 KPs · change point 2, ticks 25–36`. */
  protected override scopeText(): string {
    const a = this.shownActivity;
    const base = super.scopeText();
    return a ? vscode.l10n.t('{0} · change point {1}, ticks {2}–{3}', base, a.changePoint, a.from, a.to - 1) : base;
  }

  /** The monitor panel closes the monitor itself. */
  protected override async release(): Promise<void> {
    this.closed = true;
  }
}
