import type * as vscode from 'vscode';
import type { AnalysisService, OpenedSystemDataset } from '../../service/analysis-service';
import { EMPTY_PDES_PANEL_STATE, type PdesPanelState } from '../../shared/pdes-protocol';
import { pdesAnalysisSettings, pdesHandlers } from '../settings';
import { PdesHandlerDataset } from './pdes-handler-dataset';

export { OPEN_PDES_HANDLER, type OpenHandlerArgs } from './pdes-handler-dataset';

/**
 * A PDES run (ROSS / CODES) as the editor shows it: its editor profile holds the model's event
 * handlers per PE (the system's pdes editor-profile.ts), so heat and hovers work on the model's
 * source; the CodeLens above each handler says how many events the LPs of the PDES panel's selected
 * entities processed and rolled back there (all entities until the panel selects some), and a
 * click opens the LP type's other handler (forward ↔ reverse). The Datasets view lists its PEs, KPs,
 * LPs and events. The panel's state for the run (options, range, selection) lives here, so the
 * CodeLens follows it even when the panel is closed, and is remembered across window reloads.
 */
export class PdesDataset extends PdesHandlerDataset {
  /** The PDES panel's state for this run; set from what was remembered when the run is (re)opened. */
  panelState: PdesPanelState = EMPTY_PDES_PANEL_STATE;
  /** Whether the remembered panel state was applied (the panel does it once per dataset). */
  stateRestored = false;

  constructor(service: AnalysisService, opened: OpenedSystemDataset<'pdes'>, uri: vscode.Uri) {
    super(service, opened, uri, opened.opened);
  }

  /** Asks the PDES system for the activity of the panel state's selection (cheap: no clustering unless a cluster filter needs it). */
  async refreshActivity(): Promise<void> {
    const ticket = ++this.asked;
    const state = this.panelState;
    try {
      const activity = await this.service.systemRequest<'pdes', 'handlerActivity'>({
        dataset: this.handle,
        system: 'pdes',
        request: {
          kind: 'handlerActivity',
          options: { ...pdesAnalysisSettings(), ...state.options },
          selection: state.selection,
          handlers: pdesHandlers(),
        },
      });
      if (ticket === this.asked) this.setActivity(activity);
    } catch {
      // A run without behaviour series (network output only), or settings the panel reports: no handler lenses.
      if (ticket === this.asked) this.setActivity(undefined);
    }
  }
}
