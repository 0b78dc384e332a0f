import type * as vscode from 'vscode';
import type { AnalysisService, OpenedProfile } from '../../service/analysis-service';
import { Dataset } from './dataset';

/** A profile or a trace read from one file or folder: the overlays show its own costs. */
export class ProfileDataset extends Dataset {
  readonly kind: 'profile' | 'trace';

  constructor(service: AnalysisService, opened: OpenedProfile, uri: vscode.Uri) {
    super(service, opened, uri);
    this.kind = this.profile.trace ? 'trace' : 'profile';
  }
}
