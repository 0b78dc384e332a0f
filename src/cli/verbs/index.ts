import type { Verb } from '../verb';
import { callflowVerb } from './callflow';
import { inspectVerb } from './inspect';

/** Every `hpc-lens` verb, in the order `hpc-lens --help` lists them. */
export const VERBS: readonly Verb[] = [inspectVerb, callflowVerb];
