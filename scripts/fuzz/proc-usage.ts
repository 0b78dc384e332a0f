/** CPU time and resident memory of another process, read from /proc (Linux). */
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on Linux: /proc/PID/stat counts CPU time in 1/100 s.

/** User + system CPU seconds of a process from /proc/PID/stat, or NaN when unavailable. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): utime is the 14th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process from /proc (0 when unavailable: other systems, or it has exited). */
export function residentBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
