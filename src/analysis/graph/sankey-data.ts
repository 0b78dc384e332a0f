import type { CallflowData } from '../../shared/callflow-protocol';
import type { Profile } from '../model/profile';
import { superGraphData, type SuperGraphDataOptions } from './super-graph-data';

/**
 * The Sankey message for metric m: the super graph with the default filter (0.1 % of the root) and
 * any options (module map, splits, reveals, a context subset). Kept as the stable entry point the
 * panel and the parse worker call.
 */
export function callflowData(
  profile: Profile,
  m: number,
  title: string,
  options: Omit<SuperGraphDataOptions, 'metric'> = {},
): CallflowData {
  return superGraphData(profile, title, { ...options, metric: m });
}
