import { isTimeUnit } from '../../model/metric';
import type { Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { TraceEventKind } from '../../model/trace';
import { TraceBuilder } from '../../model/trace-builder';
import { StackInterner } from './stack-interner';

/** A per-sample value the format records besides the count (perf's period, speedscope's weights). */
export interface WeightMetric {
  name: string;
  label: string;
  unit: string;
  sourceKeys: string[];
}

/**
 * The profile (and, when the format has timestamps, the trace) of a sampled-stack file: stacks are
 * interned into the call tree by {@link StackInterner}; each sample adds its count to the `samples`
 * metric and its weight to a weight metric, exclusive at the leaf; timed samples become Sample events.
 */
export class SampledProfile {
  readonly builder: ProfileBuilder;
  readonly stacks: StackInterner;
  private samplesMetric = -1;
  private readonly weights = new Map<string, { id: number; unit: string }>();
  private traceBuilder: TraceBuilder | null = null;

  constructor(format: string, path: string) {
    this.builder = new ProfileBuilder(format, path);
    this.stacks = new StackInterner(this.builder.tree);
  }

  /** Id of the weight metric named `m.name`, created on first use. */
  weightMetric(m: WeightMetric): number {
    let w = this.weights.get(m.name);
    if (w === undefined) {
      w = { id: this.builder.addMetric({ ...m, kind: 'exclusive', aggregation: 'sum' }), unit: m.unit };
      this.weights.set(m.name, w);
    }
    return w.id;
  }

  /** Adds `count` samples of the stack ending at `leaf`, and `weight` to `weightMetric` (-1: none). */
  addSample(leaf: number, context: number, count: number, weightMetric = -1, weight = 0): void {
    if (this.samplesMetric < 0) {
      this.samplesMetric = this.builder.addMetric({
        name: 'samples',
        label: 'Samples',
        sourceKeys: ['samples'],
        unit: 'samples',
        kind: 'exclusive',
        aggregation: 'sum',
      });
    }
    this.builder.addExclusive(this.samplesMetric, leaf, context, count);
    if (weightMetric >= 0) this.builder.addExclusive(weightMetric, leaf, context, weight);
  }

  /** The trace, created on first use (formats without timestamps never ask). */
  get trace(): TraceBuilder {
    return (this.traceBuilder ??= new TraceBuilder(this.builder.tree.strings));
  }

  /** A Sample event at `time` ns; its name is the leaf frame's unless given. */
  addTimedSample(track: number, time: number, leaf: number, category: string, name?: string): void {
    this.trace.addEvent(
      TraceEventKind.Sample,
      track,
      time,
      0,
      leaf,
      this.stacks.depth(leaf),
      category,
      name ?? this.stacks.frameName(this.stacks.frameOf(leaf)),
    );
  }

  /** The profile; its primary metric is the first time-valued weight, else the sample count. */
  finish(): Profile {
    const b = this.builder;
    if (this.traceBuilder) b.trace = this.traceBuilder.finish();
    const weights = [...this.weights.values()];
    let primary = weights.find(w => isTimeUnit(w.unit))?.id ?? -1;
    if (primary < 0) primary = this.samplesMetric >= 0 ? this.samplesMetric : (weights[0]?.id ?? -1);
    if (primary < 0)
      primary = b.addMetric({
        name: 'samples',
        label: 'Samples',
        sourceKeys: ['samples'],
        unit: 'samples',
        kind: 'exclusive',
        aggregation: 'sum',
      });
    return b.build(primary);
  }
}
