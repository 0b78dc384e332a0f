import type { Verb, VerbEntry } from '../verb';

function verb(name: string, synopsis: string, load: () => Promise<Verb>): VerbEntry {
  return { name, synopsis, load };
}

/**
 * Every `hpc-lens` verb, in the order `hpc-lens --help` lists them: its name and synopsis, and how to
 * load its module. As in the format registry, each `import()` is a lazy module init in the CLI bundle
 * (esbuild.mjs), so a run initialises the one verb it runs (test/unit/lazy-modules.test.ts).
 */
export const VERBS: readonly VerbEntry[] = [
  verb('inspect', 'inspect [--json] [--top N] [--all-nodes] PATH', () => import('./inspect').then(m => m.inspectVerb)),
  verb('callflow', 'callflow --json [--threshold F] [--by inclusive|exclusive] PATH', () =>
    import('./callflow').then(m => m.callflowVerb),
  ),
  verb('analyze-trace', 'analyze-trace [--json] [--cfg FILE] [--set NAME=VALUE,…] PATH', () =>
    import('./analyze-trace').then(m => m.analyzeTraceVerb),
  ),
  verb('pdes', 'pdes [--json] [--level L] [--axis A] [--metrics M,…] [--clustering C] [--k N] [--distance D] DIR', () =>
    import('./pdes').then(m => m.pdesVerb),
  ),
  verb('monitor', 'monitor [--json] [--idle-exit SECONDS] [--replay --speed X] FILE', () =>
    import('./monitor').then(m => m.monitorVerb),
  ),
  verb('memory', 'memory [--json] [--topology FILE] PATH', () => import('./memory').then(m => m.memoryVerb)),
  verb('data-movement', 'data-movement [--json] [--rules FILE] PATH', () =>
    import('./data-movement').then(m => m.dataMovementVerb),
  ),
  verb('summary', 'summary [--json] [--metric NAME] PATH', () => import('./summary').then(m => m.summaryVerb)),
  verb('diff', 'diff [--json] [--metric NAME] BASE COMPARE', () => import('./diff').then(m => m.diffVerb)),
  verb('summarize', 'summarize [--out DIR] [--shard I/N] PATH...', () =>
    import('./summarize').then(m => m.summarizeVerb),
  ),
  verb('ensemble', 'ensemble --json [--metric NAME] [--by inclusive|exclusive] [--clusters K] PATH...', () =>
    import('./ensemble').then(m => m.ensembleVerb),
  ),
];
