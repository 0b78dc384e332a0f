import {
  DEFAULT_ENSEMBLE_OPTIONS,
  type EnsembleGraphData,
  type EnsembleViewState,
} from '../../../shared/ensemble-protocol';
import { seededRandom } from '../../stats/seeded-random';
import { ensembleGraph } from '../ensemble-graph';
import { EnsembleProfile } from '../ensemble-profile';
import { runsFromOutlines } from './outline-runs';

/**
 * A RAJAPerf-like ensemble for tests of crowded Sankey columns (issue 15): 13 runs of a suite of 6
 * groups × 10 kernels of very different weight, a few kernels missing in some runs — about 60 nodes
 * in the last column, with maxima that do not add up (tapered ribbons). Unfiltered, in summary mode.
 */
export function kernelEnsembleGraph(): { data: EnsembleGraphData; state: EnsembleViewState } {
  const groups = ['Basic', 'Lcals', 'Polybench', 'Stream', 'Apps', 'Algorithm'];
  const rnd = seededRandom(13);
  const outlines: Record<string, string> = {};
  for (let run = 0; run < 13; run++) {
    const lines = ['RAJAPerf @suite = 0.01'];
    groups.forEach((g, gi) => {
      lines.push(`  ${g} @${g} = 0.001`);
      for (let k = 0; k < 10; k++) {
        if ((k + run) % 11 === 10) continue;
        const base = 3 * Math.exp(-0.35 * k) * (1 + gi / 3);
        lines.push(`    ${g}_K${k} @${g}_K${k} = ${(base * (0.8 + 0.4 * rnd())).toFixed(4)}`);
      }
    });
    outlines[`size_${1048576 * (1 + (run % 2))}_rep${run}`] = lines.join('\n');
  }
  const ep = new EnsembleProfile(runsFromOutlines(outlines), { path: '/raja13' });
  const state: EnsembleViewState = {
    mode: 'summary',
    target: null,
    diff: null,
    runs: null,
    selected: null,
    options: DEFAULT_ENSEMBLE_OPTIONS,
  };
  return { data: ensembleGraph(ep, { state, title: 'raja13', filter: { threshold: 0 } }).data, state };
}
