import type { LocalAnalysisService } from '../../local-analysis-service';
import type { DataMovementRequest } from '../data-movement-system';
import type { SystemResult } from '..';

/** A data-movement system request to the in-process service, its answer typed by the request's kind (tests). */
export function askDataMovement<K extends DataMovementRequest['kind']>(
  s: LocalAnalysisService,
  dataset: number,
  request: Extract<DataMovementRequest, { kind: K }>,
): Promise<SystemResult<'dataMovement', K>> {
  return s.systemRequest({ dataset, system: 'dataMovement', request });
}
