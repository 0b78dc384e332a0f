import { GrowableFloat32, GrowableInt32 } from '../../model/growable';

/**
 * ROSS's event trace (`--event-trace`): one row per processed event with its sending and receiving
 * LP (global ids), the virtual send and receive times and the wall-clock time, columnar and
 * appendable. It is the only source of true sender → receiver pairs (seed digest §1.3), from which
 * the communication matrices are built. `--event-trace=1` traces every processed event (rolled-back
 * executions included, so the count equals ROSS's `events_processed`); `--event-trace=2` traces only
 * the events that caused a primary rollback (the stragglers).
 */
export class EventTrace {
  private readonly srcs = new GrowableInt32(1024);
  private readonly dsts = new GrowableInt32(1024);
  private readonly sendTimes = new GrowableFloat32(1024);
  private readonly recvTimes = new GrowableFloat32(1024);
  private readonly realTimes = new GrowableFloat32(1024);
  /** Bytes of model data per event, as the trace declares it (CODES writes 4, PHOLD 0). */
  modelBytes = 0;

  get count(): number {
    return this.srcs.length;
  }

  append(src: number, dst: number, sendTime: number, recvTime: number, realTime: number): void {
    this.srcs.push(src);
    this.dsts.push(dst);
    this.sendTimes.push(sendTime);
    this.recvTimes.push(recvTime);
    this.realTimes.push(realTime);
  }

  /** Columns as views (valid until the next append). LP ids are global ids. */
  get columns(): EventColumns {
    return {
      src: this.srcs.view(),
      dst: this.dsts.view(),
      sendTime: this.sendTimes.view(),
      recvTime: this.recvTimes.view(),
      realTime: this.realTimes.view(),
    };
  }

  /** The time column a communication interval is cut by. */
  times(axis: EventTimeAxis): Float32Array {
    return axis === 'send' ? this.sendTimes.view() : axis === 'receive' ? this.recvTimes.view() : this.realTimes.view();
  }
}

export interface EventColumns {
  src: Int32Array;
  dst: Int32Array;
  /** Virtual time the event was sent at. */
  sendTime: Float32Array;
  /** Virtual time the event is processed at (its timestamp). */
  recvTime: Float32Array;
  /** Wall-clock seconds when it was processed. */
  realTime: Float32Array;
}

/**
 * Which event time places an event in a time interval: `receive` (its timestamp: an event is
 * committed once GVT passes it, so this matches GVT and VT intervals), `send`, or `real` (wall
 * clock, for real-time intervals).
 */
export type EventTimeAxis = 'send' | 'receive' | 'real';
