import type { Verb } from '../verb';
import { inspectVerb } from './inspect';
import { monitorVerb } from './monitor';
import { pdesVerb } from './pdes';

/** Every `hpc-lens` verb, in the order `hpc-lens --help` lists them. */
export const VERBS: readonly Verb[] = [inspectVerb, pdesVerb, monitorVerb];
