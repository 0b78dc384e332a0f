import type { Verb } from '../verb';
import { analyzeTraceVerb } from './analyze-trace';
import { dataMovementVerb } from './data-movement';
import { callflowVerb } from './callflow';
import { inspectVerb } from './inspect';
import { memoryVerb } from './memory';
import { monitorVerb } from './monitor';
import { pdesVerb } from './pdes';
import { summaryVerb } from './summary';
import { diffVerb } from './diff';
import { summarizeVerb } from './summarize';
import { ensembleVerb } from './ensemble';

/** Every `hpc-lens` verb, in the order `hpc-lens --help` lists them. */
export const VERBS: readonly Verb[] = [
  inspectVerb,
  callflowVerb,
  analyzeTraceVerb,
  pdesVerb,
  monitorVerb,
  memoryVerb,
  dataMovementVerb,
  summaryVerb,
  diffVerb,
  summarizeVerb,
  ensembleVerb,
];
