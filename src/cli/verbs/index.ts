import type { Verb } from '../verb';
import { dataMovementVerb } from './data-movement';
import { inspectVerb } from './inspect';

/** Every `hpc-lens` verb, in the order `hpc-lens --help` lists them. */
export const VERBS: readonly Verb[] = [inspectVerb, dataMovementVerb];
