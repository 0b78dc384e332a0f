import { ValueAssembler, type JsonHandler } from '../json/json-tokenizer';

/** What the streaming pass hands on: each trace event, and the small top-level members. */
export interface TraceEventSink {
  event(e: Record<string, unknown>): void;
  /** A top-level member other than `traceEvents` (`stackFrames`, `samples`, `displayTimeUnit`, metadata…). */
  member(key: string, value: unknown): void;
}

/**
 * Drives a {@link TraceEventSink} from tokenizer events: the object form `{traceEvents: […], …}` or
 * the bare-array form `[…]`. Each element of the event array is assembled on its own (one small
 * object at a time), so memory stays bounded however many events the file holds. The top-level
 * `samples` array is streamed the same way (elements go to `member('samples[]', …)`).
 */
export class TraceEventStream implements JsonHandler {
  /** 'array' or 'object' once the top-level value has started. */
  form: 'array' | 'object' | null = null;
  /** Inside the event array, between elements (where a truncated bare array may end cleanly). */
  betweenEvents = false;
  /** An event was being assembled when the input ended. */
  get inEvent(): boolean { return this.assembling && this.streamKey !== null; }
  eventCount = 0;
  /** A `traceEvents` array (or a bare array) was met. */
  sawEventArray = false;

  private depth = 0;
  private currentKey: string | null = null;
  /** The top-level key whose array is streamed element by element (`traceEvents`, `samples`), or '' for a bare array. */
  private streamKey: string | null = null;
  private assembling = false;
  private readonly assembler = new ValueAssembler();

  constructor(private readonly sink: TraceEventSink, private readonly fail: (reason: string) => never) {}

  startObject(): void {
    if (this.assembling) { this.assembler.startObject(); return; }
    if (this.depth === 0) { this.form = 'object'; this.depth = 1; return; }
    this.begin();
    this.assembler.startObject();
  }

  endObject(): void {
    if (this.assembling) { this.assembler.endObject(); this.check(); return; }
    this.depth = 0;
  }

  startArray(): void {
    if (this.assembling) { this.assembler.startArray(); return; }
    if (this.depth === 0) { this.form = 'array'; this.depth = 2; this.streamKey = ''; this.sawEventArray = true; this.betweenEvents = true; return; }
    if (this.depth === 1 && (this.currentKey === 'traceEvents' || this.currentKey === 'samples')) {
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
    if (this.assembling) { this.assembler.endArray(); this.check(); return; }
    this.depth--;
    this.streamKey = null;
    this.betweenEvents = false;
    this.currentKey = null;
  }

  key(name: string): void {
    if (this.assembling) { this.assembler.key(name); return; }
    this.currentKey = name;
  }

  string(value: string): void {
    if (!this.assembling) this.beginScalar();
    this.assembler.string(value);
    this.check();
  }

  number(value: number): void {
    if (!this.assembling) this.beginScalar();
    this.assembler.number(value);
    this.check();
  }

  literal(value: boolean | null): void {
    if (!this.assembling) this.beginScalar();
    this.assembler.literal(value);
    this.check();
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
      if (this.streamKey === 'samples') this.sink.member('samples[]', v);
      else if (v !== null && typeof v === 'object' && !Array.isArray(v)) { this.eventCount++; this.sink.event(v as Record<string, unknown>); }
      this.betweenEvents = this.streamKey !== 'samples';
    } else {
      this.sink.member(this.currentKey ?? '', v);
      this.currentKey = null;
    }
  }
}
