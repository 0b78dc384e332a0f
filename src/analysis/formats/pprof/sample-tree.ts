import { basename } from 'node:path';
import type { Profile as PprofProfile, Sample } from 'pprof-format';
import { NodeKind } from '../../model/call-tree';
import type { ProfileBuilder } from '../../model/profile-builder';
import { throwIfAborted } from '../reader';
import { PairTable } from './pair-table';
import { num, PprofDataError, stringAt, type PprofTables } from './tables';

/**
 * Label keys that name the thread a sample ran on. Numeric values (`num`) become the context's
 * thread, string values its label. `pid` becomes the rank coordinate: pprof has no ranks, and
 * one process per rank is how MPI jobs are profiled.
 */
const THREAD_KEYS = new Set(['thread', 'tid', 'thread_id', 'thread id', 'goroutine', 'thread_name']);
const PROCESS_KEYS = new Set(['pid', 'process_id']);

/**
 * Turns the samples into the calling-context tree, one context per thread/process label seen (one
 * context when there are none). A path runs root-first through function nodes, each carrying the
 * line of its call in the caller (inlined frames included, with the line of the inlining site), and
 * ends in a statement child for the sampled line, so the editor gets costs per line; a sample
 * without line information charges its function node. Values are the samples' values, per metric.
 */
export class SampleTreeBuilder {
  /** (function, call line) → frame id; (parent + 1, frame id) → node; (node, line) → statement node. */
  private readonly frameIds = new PairTable();
  private readonly children = new PairTable(1 << 14);
  private readonly statements = new PairTable(1 << 14);
  private readonly contextIds = new Map<string, number>();
  private readonly strings: string[];
  private unknownStack = -1;

  constructor(
    private readonly b: ProfileBuilder,
    private readonly t: PprofTables,
    private readonly metrics: number[],
  ) {
    this.strings = t.strings;
  }

  addAll(p: PprofProfile, signal: AbortSignal | undefined, onProgress: (f: number) => void): void {
    const n = p.sample.length;
    const M = this.metrics.length;
    const values = new Float64Array(M);
    for (let s = 0; s < n; s++) {
      if ((s & 0xffff) === 0xffff) {
        throwIfAborted(signal);
        onProgress(s / n);
      }
      const sample = p.sample[s]!;
      if (sample.value.length !== M)
        throw new PprofDataError(
          `sample ${s + 1} has ${sample.value.length} values, but the profile has ${M} sample types`,
        );
      for (let m = 0; m < M; m++) values[m] = num(sample.value[m]!);
      const target = this.leafOf(sample, s);
      const context = this.contextOf(sample, s);
      for (let m = 0; m < M; m++) this.b.addExclusive(this.metrics[m]!, target, context, values[m]!);
    }
    if (this.b.contextCount === 0) this.b.context({});
  }

  private leafOf(sample: Sample, s: number): number {
    const ids = sample.locationId;
    if (ids.length === 0) {
      if (this.unknownStack < 0) this.unknownStack = this.b.tree.add(-1, '<no stack>', NodeKind.Function);
      return this.unknownStack;
    }
    const t = this.t;
    let node = -1,
      callLine = 0,
      f = 0,
      loc = 0;
    for (let k = ids.length - 1; k >= 0; k--) {
      const index = t.locationIndex.get(num(ids[k]!));
      if (index === undefined)
        throw new PprofDataError(`sample ${s + 1} refers to location ${num(ids[k]!)}, which does not exist`);
      loc = index;
      for (let fr = t.frameStart[loc + 1]! - 1; fr >= t.frameStart[loc]!; fr--) {
        f = t.frameFunction[fr]!;
        node = this.functionNode(node, f, callLine, loc);
        callLine = t.frameLine[fr]!;
      }
    }
    return callLine > 0 ? this.statementNode(node, callLine, f, loc) : node;
  }

  private functionNode(parent: number, f: number, callLine: number, loc: number): number {
    let frame = this.frameIds.get(f, callLine);
    if (frame < 0) this.frameIds.set(f, callLine, (frame = this.frameIds.size));
    let node = this.children.get(parent + 1, frame);
    if (node < 0) {
      const t = this.t;
      node = this.b.tree.add(parent, t.functionName[f]!, NodeKind.Function, {
        file: t.functionFile[f],
        line: t.functionLine[f],
        module: t.locationModule[loc],
        callLine,
      });
      this.children.set(parent + 1, frame, node);
    }
    return node;
  }

  /** The line `line` of function f's node `parent`: statements are in the file of their function. */
  private statementNode(parent: number, line: number, f: number, loc: number): number {
    let node = this.statements.get(parent, line);
    if (node < 0) {
      const file = this.t.functionFile[f]!;
      node = this.b.tree.add(parent, `${file ? basename(file) : '?'}:${line}`, NodeKind.Statement, {
        file,
        line,
        module: this.t.locationModule[loc],
      });
      this.statements.set(parent, line, node);
    }
    return node;
  }

  /** The context of a sample's thread and process labels; one shared context when it has none. */
  private contextOf(sample: Sample, s: number): number {
    if (sample.label.length === 0) return this.b.context({});
    let thread = -1,
      rank = -1;
    const names: string[] = [];
    for (const l of sample.label) {
      const key = this.str(l.key, s);
      const isThread = THREAD_KEYS.has(key);
      if (!isThread && !PROCESS_KEYS.has(key)) {
        this.str(l.str, s);
        this.str(l.numUnit, s);
        continue;
      }
      const text = this.str(l.str, s);
      const value = num(l.num);
      if (text) names.push(`${key} ${text}`);
      else if (isThread) {
        thread = value;
        if (key === 'goroutine') names.push(`goroutine ${value}`);
      } else rank = value;
    }
    if (thread < 0 && rank < 0 && names.length === 0) return this.b.context({});
    const key = `${rank}/${thread}/${names.join('\u0000')}`;
    let id = this.contextIds.get(key);
    if (id === undefined) {
      const parts = [
        ...(rank >= 0 ? [`pid ${rank}`] : []),
        ...(thread >= 0 && !names.some(x => x.startsWith('goroutine')) ? [`thread ${thread}`] : []),
        ...names,
      ];
      id = this.b.newContext({ rank, thread, label: parts.join(' · ') });
      this.contextIds.set(key, id);
    }
    return id;
  }

  private str(v: number | bigint, s: number): string {
    return stringAt(this.strings, v, `a label of sample ${s + 1}`);
  }
}
