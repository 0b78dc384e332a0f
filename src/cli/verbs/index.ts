import type { Verb } from '../verb';
import { inspectVerb } from './inspect';
import { memoryVerb } from './memory';

/** Every `hpc-lens` verb, in the order `hpc-lens --help` lists them. */
export const VERBS: readonly Verb[] = [inspectVerb, memoryVerb];
