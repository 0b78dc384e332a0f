import { Buffer } from 'node:buffer';
import { JsonTokenizer, SKIP_RAW, ValueAssembler, type JsonHandler } from '../json/json-tokenizer';

/**
 * The members of one trace event (or one element of the top-level `samples` array) that the
 * reader uses, filled straight from tokenizer events into one reused object: no object per event.
 * Identity-like members keep their JSON value (`pid`, `tid`, `id`… may be numbers or strings);
 * numeric members are already converted as {@link num} does (NaN when absent or not numeric).
 * A duplicated member keeps its last value, as in `JSON.parse`.
 */
export class EventFields {
  ph: unknown = undefined;
  name: unknown = undefined;
  cat: unknown = undefined;
  pid: unknown = undefined;
  tid: unknown = undefined;
  id: unknown = undefined;
  id2: unknown = undefined;
  bindId: unknown = undefined;
  bp: unknown = undefined;
  sf: unknown = undefined;
  ts = NaN;
  dur = NaN;
  weight = NaN;
  /** `args` is an object or an array. */
  hasArgs = false;
  // `args` members the slices use, converted as num() does.
  correlation = NaN;
  bytes = NaN;
  device = NaN;
  stream = NaN;
  callStack: unknown = undefined;
  /** Every `args` member in order (counters and metadata read them): key, kind (ARG_*), number, string. */
  argCount = 0;
  readonly argKeys: string[] = [];
  argKind = new Uint8Array(16);
  argNum = new Float64Array(16);
  readonly argStr: string[] = [];

  reset(): void {
    this.ph =
      this.name =
      this.cat =
      this.pid =
      this.tid =
      this.id =
      this.id2 =
      this.bindId =
      this.bp =
      this.sf =
        undefined;
    this.ts = this.dur = this.weight = NaN;
    this.resetArgs();
  }

  resetArgs(): void {
    this.hasArgs = false;
    this.correlation = this.bytes = this.device = this.stream = NaN;
    this.callStack = undefined;
    this.argCount = 0;
  }

  addArg(key: string, kind: number, n: number, s: string): void {
    const i = this.argCount++;
    if (i === this.argKind.length) {
      const k = new Uint8Array(i * 2);
      k.set(this.argKind);
      this.argKind = k;
      const v = new Float64Array(i * 2);
      v.set(this.argNum);
      this.argNum = v;
    }
    this.argKeys[i] = key;
    this.argKind[i] = kind;
    this.argNum[i] = n;
    this.argStr[i] = s;
  }

  /** Sets `args` member i to a scalar JSON value, as {@link addArg} would have (for a member other than the A_* ones). */
  setArgValue(i: number, v: unknown): void {
    this.argNum[i] = typeof v === 'number' ? v : NaN;
    this.argStr[i] = typeof v === 'string' ? v : '';
    this.argKind[i] =
      typeof v === 'number'
        ? ARG_NUMBER
        : typeof v === 'string'
          ? ARG_STRING
          : v === true
            ? ARG_TRUE
            : v === false
              ? ARG_FALSE
              : ARG_NULL;
  }

  /** The JSON value of `args` member i (a container stands as `{}`: only scalars are kept). */
  argValue(i: number): unknown {
    switch (this.argKind[i]) {
      case ARG_NUMBER:
        return this.argNum[i];
      case ARG_STRING:
        return this.argStr[i];
      case ARG_TRUE:
        return true;
      case ARG_FALSE:
        return false;
      case ARG_NULL:
        return null;
      default:
        return {};
    }
  }

  /** The last value of `args[key]`, or undefined. */
  arg(key: string): unknown {
    for (let i = this.argCount - 1; i >= 0; i--) if (this.argKeys[i] === key) return this.argValue(i);
    return undefined;
  }
}

const ARG_NUMBER = 0,
  ARG_STRING = 1,
  ARG_TRUE = 2,
  ARG_FALSE = 3,
  ARG_NULL = 4,
  ARG_CONTAINER = 5;

/** Chrome allows numbers as strings (`"ts": "11550183666"`). */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
}

/** What the streaming pass hands on: each trace event, and the small top-level members. */
export interface TraceEventSink {
  /** One element of the event array; `e` is reused for the next event. */
  event(e: EventFields): void;
  /** One element of the top-level `samples` array; `e` is reused. */
  sample(e: EventFields): void;
  /** A top-level member other than `traceEvents` and `samples` (`stackFrames`, `displayTimeUnit`, metadata…). */
  member(key: string, value: unknown): void;
}

// Event members by key; values ≥ F_ARGS are handled specially.
const F_OTHER = 0,
  F_PH = 1,
  F_NAME = 2,
  F_CAT = 3,
  F_PID = 4,
  F_TID = 5,
  F_ID = 6,
  F_ID2 = 7,
  F_BIND_ID = 8,
  F_BP = 9,
  F_SF = 10;
const F_TS = 11,
  F_DUR = 12,
  F_WEIGHT = 13,
  F_ARGS = 14;
const FIELD = new Map<string, number>([
  ['ph', F_PH],
  ['name', F_NAME],
  ['cat', F_CAT],
  ['pid', F_PID],
  ['tid', F_TID],
  ['id', F_ID],
  ['id2', F_ID2],
  ['bind_id', F_BIND_ID],
  ['bp', F_BP],
  ['sf', F_SF],
  ['ts', F_TS],
  ['dur', F_DUR],
  ['weight', F_WEIGHT],
  ['args', F_ARGS],
]);
const A_OTHER = 0,
  A_CORRELATION = 1,
  A_BYTES = 2,
  A_DEVICE = 3,
  A_STREAM = 4,
  A_CALL_STACK = 5;
const ARG = new Map<string, number>([
  ['correlation', A_CORRELATION],
  ['bytes', A_BYTES],
  ['device', A_DEVICE],
  ['stream', A_STREAM],
  ['Call stack', A_CALL_STACK],
]);

/**
 * Phases whose events read only the A_* members of `args` (slices, async slices, flows, samples):
 * their other members are skipped undecoded. Instants (`[memory]`), counters and metadata read any.
 */
const ARGS_UNREAD_BEYOND_SLICE_FIELDS = new Set(['X', 'B', 'E', 'b', 'e', 'S', 'F', 's', 't', 'f', 'P']);

// What an `args` member skipped raw (its phase not yet known) turned out to be, from its first byte.
const RAW_UNSEEN = 0,
  RAW_CONTAINER = 1,
  RAW_SCALAR = 2;

// Where the handler is inside an event.
/** Between members of the event object. */
const E_MEMBERS = 0;
/** Between members (or elements) of its `args`. */
const E_ARGS = 1;
/** Skipping a container nobody reads (`skipDepth` open levels). */
const E_SKIP = 2;
/** Assembling a container-valued member (`id2`, or an odd `pid`…) with the ValueAssembler. */
const E_ASSEMBLE = 3;

/**
 * Drives a {@link TraceEventSink} from tokenizer events: the object form `{traceEvents: […], …}` or
 * the bare-array form `[…]`. Elements of the event array (and of a top-level `samples` array) are
 * not assembled into objects: the members the reader needs go straight into one reused
 * {@link EventFields}, and everything else is skipped without building values, so memory stays
 * bounded and the per-event cost is a few field writes. Other top-level members are small and are
 * assembled whole.
 */
export class TraceEventStream implements JsonHandler {
  /** 'array' or 'object' once the top-level value has started. */
  form: 'array' | 'object' | null = null;
  /** Inside the event array, between elements (where a truncated bare array may end cleanly). */
  betweenEvents = false;
  eventCount = 0;
  /** A `traceEvents` array (or a bare array) was met. */
  sawEventArray = false;

  private depth = 0;
  private currentKey: string | null = null;
  /** The top-level key whose array is streamed element by element (`traceEvents`, `samples`), or '' for a bare array. */
  private streamKey: string | null = null;
  /** Assembling a whole top-level member, or a non-object element of a streamed array. */
  private assembling = false;
  private readonly assembler = new ValueAssembler();

  /** Inside an object element of the streamed array. */
  private inEvent = false;
  private where = E_MEMBERS;
  /** Member (F_*) whose value comes next, at the event's top level. */
  private field = F_OTHER;
  /** `args` member (A_*) whose value comes next, and its key. */
  private argField = A_OTHER;
  private argKey = '';
  /** `args` is an array: its elements are keyed by index, like Object.entries. */
  private argsArray = false;
  /** The event's phase (written before `args`, as every tracer does) reads no `args` member beyond the A_* ones. */
  private otherArgsUnread = false;
  private argIndex = 0;
  /** Open levels of the container being skipped; where to return when it closes. */
  private skipDepth = 0;
  private skipReturn = E_MEMBERS;
  private readonly fields = new EventFields();
  /**
   * `args` written before `ph` (Chrome DevTools and Perfetto write keys in alphabetical order): the
   * members other than the A_* ones are skipped by the tokenizer undecoded, a scalar's bytes kept in
   * {@link rawArgs}, and decoded at the event's end only if its phase reads them.
   */
  private phaseUnknownInArgs = false;
  private rawArgs: Buffer = Buffer.allocUnsafe(256);
  private rawArgsLength = 0;
  /** Per kept scalar: its `args` member index, and where its bytes start and end in {@link rawArgs}. */
  private rawSpans = new Int32Array(48);
  private rawSpanCount = 0;
  /** The member being skipped raw: its index and what it is so far (RAW_*). */
  private rawMember = 0;
  private rawKind = RAW_UNSEEN;
  private rawFrom = 0;
  private readonly rawValue = new ValueAssembler();
  private readonly rawTokenizer = new JsonTokenizer(this.rawValue);
  /** Recent keys and their codes, by slot (event members in 0–63, `args` members in 64–127). */
  private readonly keySeen: string[] = new Array<string>(128).fill('');
  private readonly keyCode = new Int32Array(128);

  constructor(
    private readonly sink: TraceEventSink,
    private readonly fail: (reason: string) => never,
  ) {}

  startObject(): void {
    if (this.inEvent) {
      this.openInEvent(false);
      return;
    }
    if (this.assembling) {
      this.assembler.startObject();
      return;
    }
    if (this.depth === 0) {
      this.form = 'object';
      this.depth = 1;
      return;
    }
    if (this.streamKey !== null) {
      this.inEvent = true;
      this.where = E_MEMBERS;
      this.field = F_OTHER;
      this.betweenEvents = false;
      this.fields.reset();
      this.rawSpanCount = 0;
      return;
    }
    this.begin();
    this.assembler.startObject();
  }

  endObject(): void {
    if (this.inEvent) {
      if (this.where === E_MEMBERS) {
        this.finishEvent();
        return;
      }
      this.closeInEvent(false);
      return;
    }
    if (this.assembling) {
      this.assembler.endObject();
      this.check();
      return;
    }
    this.depth = 0;
  }

  startArray(): void {
    if (this.inEvent) {
      this.openInEvent(true);
      return;
    }
    if (this.assembling) {
      this.assembler.startArray();
      return;
    }
    if (this.depth === 0) {
      this.form = 'array';
      this.depth = 2;
      this.streamKey = '';
      this.sawEventArray = true;
      this.betweenEvents = true;
      return;
    }
    if (
      this.depth === 1 &&
      this.streamKey === null &&
      (this.currentKey === 'traceEvents' || this.currentKey === 'samples')
    ) {
      this.depth = 2;
      this.streamKey = this.currentKey;
      this.betweenEvents = this.currentKey === 'traceEvents';
      if (this.betweenEvents) this.sawEventArray = true;
      return;
    }
    this.begin();
    this.assembler.startArray();
  }

  endArray(): void {
    if (this.inEvent) {
      this.closeInEvent(true);
      return;
    }
    if (this.assembling) {
      this.assembler.endArray();
      this.check();
      return;
    }
    this.depth--;
    this.streamKey = null;
    this.betweenEvents = false;
    this.currentKey = null;
  }

  key(name: string): boolean | typeof SKIP_RAW | void {
    if (this.inEvent) {
      switch (this.where) {
        case E_MEMBERS:
          this.field = this.codeOf(name, FIELD, 0);
          // A member nobody reads is skipped by the tokenizer, undecoded.
          return this.field === F_OTHER;
        case E_ARGS:
          this.argKey = name;
          this.argField = this.codeOf(name, ARG, 64);
          if (this.argField !== A_OTHER) return false;
          if (this.phaseUnknownInArgs) {
            // Kept undecoded; the member keeps its place among the args (counters read them in order).
            this.rawMember = this.fields.argCount;
            this.fields.addArg(name, ARG_CONTAINER, NaN, '');
            this.rawKind = RAW_UNSEEN;
            this.rawFrom = this.rawArgsLength;
            return SKIP_RAW;
          }
          return this.otherArgsUnread;
        case E_ASSEMBLE:
          this.assembler.key(name);
          return;
        default:
          return;
      }
    }
    if (this.assembling) {
      this.assembler.key(name);
      return;
    }
    this.currentKey = name;
  }

  skippedBytes(bytes: Uint8Array, start: number, end: number, done: boolean): void {
    let s = start;
    if (this.rawKind === RAW_UNSEEN) {
      while (s < end && bytes[s]! <= 0x20) s++; // whitespace (anything else below 0x21 the tokenizer refuses)
      if (s === end) return;
      const c = bytes[s];
      this.rawKind = c === 0x7b || c === 0x5b ? RAW_CONTAINER : RAW_SCALAR;
    }
    if (this.rawKind === RAW_CONTAINER) return; // ARG_CONTAINER already: nobody reads inside
    const at = this.rawArgsLength;
    const len = end - s;
    if (at + len > this.rawArgs.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.rawArgs.length, at + len));
      this.rawArgs.copy(grown, 0, 0, at);
      this.rawArgs = grown;
    }
    const raw = this.rawArgs;
    if (len <= 64) for (let k = 0; k < len; k++) raw[at + k] = bytes[s + k]!;
    else raw.set(bytes.subarray(s, end), at);
    this.rawArgsLength = at + len;
    if (!done) return;
    const k = 3 * this.rawSpanCount++;
    if (k + 3 > this.rawSpans.length) {
      const grown = new Int32Array(this.rawSpans.length * 2);
      grown.set(this.rawSpans);
      this.rawSpans = grown;
    }
    this.rawSpans[k] = this.rawMember;
    this.rawSpans[k + 1] = this.rawFrom;
    this.rawSpans[k + 2] = this.rawArgsLength;
  }

  string(value: string): void {
    if (this.inEvent) {
      // num() only where a number belongs: trimming and converting every string would cost.
      if (this.where === E_MEMBERS) this.setField(value, this.field >= F_TS ? num(value) : NaN);
      else if (this.where === E_ARGS) this.setArg(ARG_STRING, this.argField !== A_OTHER ? num(value) : NaN, value);
      else if (this.where === E_ASSEMBLE) {
        this.assembler.string(value);
        this.assembled();
      }
      return;
    }
    if (!this.assembling) this.beginScalar();
    this.assembler.string(value);
    this.check();
  }

  number(value: number): void {
    if (this.inEvent) {
      if (this.where === E_MEMBERS) this.setField(value, value);
      else if (this.where === E_ARGS) this.setArg(ARG_NUMBER, value, '');
      else if (this.where === E_ASSEMBLE) {
        this.assembler.number(value);
        this.assembled();
      }
      return;
    }
    if (!this.assembling) this.beginScalar();
    this.assembler.number(value);
    this.check();
  }

  literal(value: boolean | null): void {
    if (this.inEvent) {
      if (this.where === E_MEMBERS) {
        this.setField(value, NaN);
      } else if (this.where === E_ARGS) {
        this.setArg(value === true ? ARG_TRUE : value === false ? ARG_FALSE : ARG_NULL, NaN, '');
      } else if (this.where === E_ASSEMBLE) {
        this.assembler.literal(value);
        this.assembled();
      }
      return;
    }
    if (!this.assembling) this.beginScalar();
    this.assembler.literal(value);
    this.check();
  }

  /**
   * The code of a member key. The tokenizer hands out the same string object for a repeated short
   * key, so a slot by length and first letter usually answers by identity, before any hashing.
   */
  private codeOf(name: string, codes: Map<string, number>, half: number): number {
    const slot = half + ((name.length * 7 + (name.length ? name.charCodeAt(0) : 0)) & 63);
    if (this.keySeen[slot] === name) return this.keyCode[slot]!;
    const code = codes.get(name) ?? 0;
    this.keySeen[slot] = name;
    this.keyCode[slot] = code;
    return code;
  }

  /** A scalar member of the event: `raw` is its JSON value, `n` its num() conversion. */
  private setField(raw: string | number | boolean | null, n: number): void {
    const f = this.fields;
    switch (this.field) {
      case F_PH:
        f.ph = raw;
        break;
      case F_NAME:
        f.name = raw;
        break;
      case F_CAT:
        f.cat = raw;
        break;
      case F_PID:
        f.pid = raw;
        break;
      case F_TID:
        f.tid = raw;
        break;
      case F_ID:
        f.id = raw;
        break;
      case F_ID2:
        f.id2 = raw;
        break;
      case F_BIND_ID:
        f.bindId = raw;
        break;
      case F_BP:
        f.bp = raw;
        break;
      case F_SF:
        f.sf = raw;
        break;
      case F_TS:
        f.ts = n;
        break;
      case F_DUR:
        f.dur = n;
        break;
      case F_WEIGHT:
        f.weight = n;
        break;
      case F_ARGS:
        f.resetArgs();
        this.rawSpanCount = 0;
        break;
      default:
        break;
    }
  }

  private setArg(kind: number, n: number, s: string): void {
    const f = this.fields;
    const key = this.argsArray ? String(this.argIndex++) : this.argKey;
    f.addArg(key, kind, n, s);
    if (this.argsArray) return;
    switch (this.argField) {
      case A_CORRELATION:
        f.correlation = n;
        break;
      case A_BYTES:
        f.bytes = n;
        break;
      case A_DEVICE:
        f.device = n;
        break;
      case A_STREAM:
        f.stream = n;
        break;
      case A_CALL_STACK:
        f.callStack = kind === ARG_STRING ? s : undefined;
        break;
      default:
        break;
    }
  }

  private openInEvent(isArray: boolean): void {
    switch (this.where) {
      case E_MEMBERS: {
        const f = this.field;
        if (f === F_ARGS) {
          this.fields.resetArgs();
          this.fields.hasArgs = true;
          this.argsArray = isArray;
          this.otherArgsUnread = !isArray && ARGS_UNREAD_BEYOND_SLICE_FIELDS.has(this.fields.ph as string);
          this.phaseUnknownInArgs = !isArray && this.fields.ph === undefined;
          this.rawArgsLength = this.rawSpanCount = 0;
          this.argIndex = 0;
          this.argField = A_OTHER;
          this.where = E_ARGS;
        } else if (f >= F_PH && f <= F_SF) {
          this.assembler.begin();
          if (isArray) this.assembler.startArray();
          else this.assembler.startObject();
          this.where = E_ASSEMBLE;
        } else {
          // A container where a number belongs (num() of it is NaN), or a member nobody reads.
          this.setField(null, NaN);
          this.skip(E_MEMBERS);
        }
        return;
      }
      case E_ARGS: {
        // Containers inside args are only counted (no reader needs their contents).
        this.setArg(ARG_CONTAINER, NaN, '');
        this.skip(E_ARGS);
        return;
      }
      case E_SKIP:
        this.skipDepth++;
        return;
      default:
        if (isArray) this.assembler.startArray();
        else this.assembler.startObject();
    }
  }

  private closeInEvent(isArray: boolean): void {
    switch (this.where) {
      case E_ARGS:
        this.where = E_MEMBERS;
        this.phaseUnknownInArgs = false;
        return;
      case E_SKIP:
        if (--this.skipDepth === 0) this.where = this.skipReturn;
        return;
      case E_ASSEMBLE:
        if (isArray) this.assembler.endArray();
        else this.assembler.endObject();
        this.assembled();
        return;
      default:
        return;
    }
  }

  private skip(back: number): void {
    this.where = E_SKIP;
    this.skipDepth = 1;
    this.skipReturn = back;
  }

  /** A container-valued member may be complete. */
  private assembled(): void {
    if (!this.assembler.done) return;
    const v = this.assembler.value;
    this.where = E_MEMBERS;
    const f = this.fields;
    switch (this.field) {
      case F_PH:
        f.ph = v;
        break;
      case F_NAME:
        f.name = v;
        break;
      case F_CAT:
        f.cat = v;
        break;
      case F_PID:
        f.pid = v;
        break;
      case F_TID:
        f.tid = v;
        break;
      case F_ID:
        f.id = v;
        break;
      case F_ID2:
        f.id2 = v;
        break;
      case F_BIND_ID:
        f.bindId = v;
        break;
      case F_BP:
        f.bp = v;
        break;
      case F_SF:
        f.sf = v;
        break;
      default:
        break;
    }
  }

  /**
   * Decodes the `args` scalars kept as bytes when `args` came before `ph`, if the phase reads them
   * (the rule of {@link ARGS_UNREAD_BEYOND_SLICE_FIELDS}, as when `ph` comes first).
   */
  private decodeRawArgs(): void {
    const n = this.rawSpanCount;
    this.rawSpanCount = 0;
    const ph = this.fields.ph;
    if (typeof ph === 'string' && ARGS_UNREAD_BEYOND_SLICE_FIELDS.has(ph)) return;
    const spans = this.rawSpans;
    const assembler = this.rawValue;
    const t = this.rawTokenizer;
    for (let k = 0; k < 3 * n; k += 3) {
      assembler.begin();
      t.reset();
      t.write(this.rawArgs.subarray(spans[k + 1]!, spans[k + 2]!));
      t.end();
      this.fields.setArgValue(spans[k]!, assembler.value);
    }
  }

  private finishEvent(): void {
    if (this.rawSpanCount > 0) this.decodeRawArgs();
    this.inEvent = false;
    if (this.streamKey === 'samples') {
      this.sink.sample(this.fields);
      return;
    }
    this.eventCount++;
    this.betweenEvents = true;
    this.sink.event(this.fields);
  }

  private beginScalar(): void {
    if (this.depth === 0) this.fail('the top level is neither an object nor an array of trace events');
    this.begin();
  }

  private begin(): void {
    this.assembler.begin();
    this.assembling = true;
    this.betweenEvents = false;
  }

  private check(): void {
    if (!this.assembler.done) return;
    this.assembling = false;
    const v = this.assembler.value;
    if (this.streamKey !== null) {
      // A non-object element of the event array: nothing to read. An array among the samples counts as one without a time.
      this.betweenEvents = this.streamKey !== 'samples';
      if (this.streamKey === 'samples' && Array.isArray(v)) {
        this.fields.reset();
        this.sink.sample(this.fields);
      }
    } else {
      this.sink.member(this.currentKey ?? '', v);
      this.currentKey = null;
    }
  }
}
