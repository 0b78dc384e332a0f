import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';
import { ValueAssembler, type JsonHandler } from '../json/json-tokenizer';

/** A frame of `shared.frames`. */
export interface SpeedscopeFrame {
  name: string;
  file: string | null;
  line: number | null;
}

/** One profile of the file, its arrays kept as typed columns. */
export interface SpeedscopeProfile {
  type: string;
  name: string;
  unit: string;
  startValue: number;
  endValue: number;
  /** Sampled: the frames of all stacks, concatenated (root first); stack k ends at `stackEnds[k]`. */
  stackFrames: GrowableInt32;
  stackEnds: GrowableInt32;
  weights: GrowableFloat64;
  /** Evented: 1 for open (`O`), 0 for close (`C`), with the time and frame of each event. */
  eventOpen: GrowableUint8;
  eventAt: GrowableFloat64;
  eventFrame: GrowableInt32;
}

// Where the handler is in the document.
const TOP = 1,
  SHARED = 2,
  FRAMES = 3,
  PROFILES = 4,
  PROFILE = 5,
  SAMPLES = 6,
  STACK = 7,
  WEIGHTS = 8,
  EVENTS = 9,
  EVENT = 10;

/**
 * Collects a speedscope document from tokenizer events without holding it as one value: frames are
 * assembled one at a time, and the samples, weights and events arrays (the bulk of the file) go
 * straight into typed columns. Members may come in any order (`profiles` often precede `shared`).
 * Members the format does not define are skipped.
 */
export class SpeedscopeDocument implements JsonHandler {
  readonly frames: SpeedscopeFrame[] = [];
  readonly profiles: SpeedscopeProfile[] = [];
  readonly metadata: Record<string, string | number> = {};
  sawProfiles = false;

  private readonly states: number[] = [];
  private member = '';
  /** Open containers of a member being skipped. */
  private skip = 0;
  private assembling = false;
  private readonly assembler = new ValueAssembler();
  private profile: SpeedscopeProfile | null = null;
  private eventType = '';
  private eventAt = NaN;
  private eventFrame = -1;

  constructor(private readonly fail: (reason: string) => never) {}

  private get state(): number {
    return this.states.length ? this.states[this.states.length - 1]! : 0;
  }
  private get where(): string {
    return `profiles[${this.profiles.length}]`;
  }

  startObject(): void {
    if (this.skip > 0) {
      this.skip++;
      return;
    }
    if (this.assembling) {
      this.assembler.startObject();
      return;
    }
    switch (this.state) {
      case 0:
        this.states.push(TOP);
        return;
      case TOP:
        if (this.member === 'shared') this.states.push(SHARED);
        else this.skip = 1;
        return;
      case FRAMES:
        this.assembling = true;
        this.assembler.begin();
        this.assembler.startObject();
        return;
      case PROFILES:
        this.profile = newProfile();
        this.states.push(PROFILE);
        return;
      case EVENTS:
        this.eventType = '';
        this.eventAt = NaN;
        this.eventFrame = -1;
        this.states.push(EVENT);
        return;
      case SAMPLES:
      case STACK:
      case WEIGHTS:
        return this.fail(`${this.where}: "samples" and "weights" must hold arrays of numbers`);
      default:
        this.skip = 1;
    }
  }

  startArray(): void {
    if (this.skip > 0) {
      this.skip++;
      return;
    }
    if (this.assembling) {
      this.assembler.startArray();
      return;
    }
    switch (this.state) {
      case 0:
        return this.fail('not a speedscope file: the top level is not an object');
      case TOP:
        if (this.member === 'profiles') {
          this.states.push(PROFILES);
          this.sawProfiles = true;
        } else this.skip = 1;
        return;
      case SHARED:
        if (this.member === 'frames') this.states.push(FRAMES);
        else this.skip = 1;
        return;
      case PROFILE:
        if (this.member === 'samples') this.states.push(SAMPLES);
        else if (this.member === 'weights') this.states.push(WEIGHTS);
        else if (this.member === 'events') this.states.push(EVENTS);
        else this.skip = 1;
        return;
      case SAMPLES:
        this.states.push(STACK);
        return;
      case FRAMES:
        return this.fail(`shared.frames[${this.frames.length}] is not an object`);
      case PROFILES:
        return this.fail(`${this.where} is not an object`);
      case STACK:
      case WEIGHTS:
        return this.fail(`${this.where}: "samples" and "weights" must hold arrays of numbers`);
      case EVENTS:
        return this.fail(`${this.where}: each event must be an object {type, at, frame}`);
      default:
        this.skip = 1;
    }
  }

  endObject(): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    if (this.assembling) {
      this.assembler.endObject();
      this.checkFrame();
      return;
    }
    const s = this.states.pop();
    if (s === EVENT) this.endEvent();
    else if (s === PROFILE) {
      this.profiles.push(this.profile!);
      this.profile = null;
    }
  }

  endArray(): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    if (this.assembling) {
      this.assembler.endArray();
      return;
    }
    const s = this.states.pop();
    if (s === STACK) this.profile!.stackEnds.push(this.profile!.stackFrames.length);
  }

  key(name: string): void {
    if (this.skip > 0) return;
    if (this.assembling) {
      this.assembler.key(name);
      return;
    }
    this.member = name;
  }

  string(value: string): void {
    if (this.skip > 0) return;
    if (this.assembling) {
      this.assembler.string(value);
      return;
    }
    switch (this.state) {
      case TOP:
        if (this.member !== '$schema') this.metadata[this.member] = value;
        return;
      case PROFILE:
        if (this.member === 'type') this.profile!.type = value;
        else if (this.member === 'name') this.profile!.name = value;
        else if (this.member === 'unit') this.profile!.unit = value;
        return;
      case EVENT:
        if (this.member === 'type') this.eventType = value;
        return;
      default:
        this.scalar();
    }
  }

  number(value: number): void {
    if (this.skip > 0) return;
    if (this.assembling) {
      this.assembler.number(value);
      return;
    }
    switch (this.state) {
      case TOP:
        this.metadata[this.member] = value;
        return;
      case PROFILE:
        if (this.member === 'startValue') this.profile!.startValue = value;
        else if (this.member === 'endValue') this.profile!.endValue = value;
        return;
      case STACK:
        if (!Number.isInteger(value) || value < 0)
          this.fail(`${this.where}: sample frame index ${value} is not a non-negative integer`);
        this.profile!.stackFrames.push(value);
        return;
      case WEIGHTS:
        if (!(value >= 0)) this.fail(`${this.where}: weight ${value} is negative`);
        this.profile!.weights.push(value);
        return;
      case EVENT:
        if (this.member === 'at') this.eventAt = value;
        else if (this.member === 'frame') this.eventFrame = value;
        return;
      default:
        this.scalar();
    }
  }

  literal(value: boolean | null): void {
    if (this.skip > 0) return;
    if (this.assembling) {
      this.assembler.literal(value);
      return;
    }
    if (this.state === TOP || this.state === PROFILE || this.state === EVENT || this.state === SHARED) return;
    this.scalar();
  }

  /** A scalar where only containers belong. */
  private scalar(): void {
    switch (this.state) {
      case 0:
        return this.fail('not a speedscope file: the top level is not an object');
      case FRAMES:
        return this.fail(`shared.frames[${this.frames.length}] is not an object`);
      case PROFILES:
        return this.fail(`${this.where} is not an object`);
      case SAMPLES:
        return this.fail(`${this.where}: each sample must be an array of frame indices`);
      case STACK:
      case WEIGHTS:
        return this.fail(`${this.where}: "samples" and "weights" must hold numbers`);
      case EVENTS:
        return this.fail(`${this.where}: each event must be an object {type, at, frame}`);
    }
  }

  private checkFrame(): void {
    if (!this.assembler.done) return;
    this.assembling = false;
    const f = this.assembler.value as Record<string, unknown>;
    const i = this.frames.length;
    if (typeof f['name'] !== 'string') this.fail(`shared.frames[${i}] has no "name" string`);
    const line = f['line'];
    this.frames.push({
      name: f['name'] as string,
      file: typeof f['file'] === 'string' && f['file'] ? f['file'] : null,
      line: typeof line === 'number' && Number.isInteger(line) && line > 0 ? line : null,
    });
  }

  private endEvent(): void {
    const p = this.profile!;
    const k = p.eventAt.length;
    if (this.eventType !== 'O' && this.eventType !== 'C')
      this.fail(`${this.where}.events[${k}]: type must be "O" or "C", not ${JSON.stringify(this.eventType)}`);
    if (!Number.isFinite(this.eventAt)) this.fail(`${this.where}.events[${k}] has no numeric "at"`);
    if (!Number.isInteger(this.eventFrame) || this.eventFrame < 0)
      this.fail(`${this.where}.events[${k}] has no frame index`);
    p.eventOpen.push(this.eventType === 'O' ? 1 : 0);
    p.eventAt.push(this.eventAt);
    p.eventFrame.push(this.eventFrame);
  }
}

function newProfile(): SpeedscopeProfile {
  return {
    type: '',
    name: '',
    unit: 'none',
    startValue: 0,
    endValue: 0,
    stackFrames: new GrowableInt32(1024),
    stackEnds: new GrowableInt32(256),
    weights: new GrowableFloat64(256),
    eventOpen: new GrowableUint8(256),
    eventAt: new GrowableFloat64(256),
    eventFrame: new GrowableInt32(256),
  };
}
