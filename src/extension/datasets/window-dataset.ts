import * as vscode from 'vscode';
import type { AnalysisService, OpenedProfile } from '../../service/analysis-service';
import { formatWindow, type TimelineWindow } from '../../shared/timeline-protocol';
import { Dataset } from './dataset';

/**
 * A time window of a trace (the timeline's Use This Window for Overlays): its profile counts only
 * what ran inside the window (and lanes), and it takes its trace's place in the Datasets view until
 * Use Whole Run for Overlays puts the trace back. Closing the window frees only the window.
 */
export class WindowDataset extends Dataset {
  readonly kind = 'window';

  constructor(
    service: AnalysisService,
    opened: OpenedProfile,
    /** The whole-run dataset the window is cut from. */
    readonly whole: Dataset,
    readonly window: TimelineWindow,
    readonly tracks: number[] | null,
  ) {
    super(service, opened, whole.uri);
  }

  override get wholeRun(): Dataset {
    return this.whole;
  }

  override get overlayWindow(): TimelineWindow {
    return this.window;
  }

  override get name(): string {
    const n = this.tracks?.length;
    const lanes = n === undefined ? '' : `, ${n === 1 ? vscode.l10n.t('{0} lane', n) : vscode.l10n.t('{0} lanes', n)}`;
    return `${this.whole.name} [${formatWindow(this.window)}${lanes}]`;
  }
}
