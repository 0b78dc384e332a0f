import { profileFromOutline } from '../../model/test-profiles';
import { describeRun, type RunProfile } from '../ensemble-runs';

/**
 * Runs for tests from indented outlines (model/test-profiles.ts syntax: `name @module file:line = v…`,
 * one exclusive value per context after `=`). Keys are run names; `contexts` gives a run's context
 * count (default 1), and the run's parameters come from its name like a path (`27_cores` → cores 27).
 */
export function runsFromOutlines(
  outlines: Record<string, string>,
  contexts: Record<string, number> = {},
): RunProfile[] {
  return Object.entries(outlines).map(([name, outline]) => {
    const profile = profileFromOutline(outline, contexts[name] ?? 1);
    return { run: describeRun(profile, name, name), profile };
  });
}
