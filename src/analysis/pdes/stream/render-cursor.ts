/**
 * Where a view's rendering stands in the tick stream (thesis §6.4: "Pause freezes updates so the
 * user can interact; Resume jumps to the current state"). The monitor keeps ingesting and
 * analysing every tick; the cursor only decides what is drawn. Paused, new ticks pass by; resuming
 * jumps straight to the newest instead of replaying the ones missed.
 */
export class RenderCursor {
  /** The last tick drawn (−1 before the first). */
  rendered = -1;
  /** The newest tick offered. */
  latest = -1;
  private isPaused = false;

  get paused(): boolean {
    return this.isPaused;
  }

  /** Ticks offered since the last one drawn (what a paused view is behind by). */
  get behind(): number {
    return Math.max(0, this.latest - this.rendered);
  }

  /** A new tick is ready: true when the view should draw it now. */
  offer(tick: number): boolean {
    if (tick > this.latest) this.latest = tick;
    if (this.isPaused) return false;
    this.rendered = this.latest;
    return true;
  }

  pause(): void {
    this.isPaused = true;
  }

  /** Resumes; returns the tick to jump to (the newest), or −1 when nothing arrived meanwhile. */
  resume(): number {
    this.isPaused = false;
    if (this.latest <= this.rendered) return -1;
    this.rendered = this.latest;
    return this.latest;
  }
}
