/**
 * Human formatting of metric values for labels, tooltips and headers: times scale to a readable unit
 * (`12.3 s`, `845 ms`, `3.1 µs`), byte counts to binary prefixes (`1.5 MiB`), everything else gets
 * k/M/G/T suffixes (`12.3k`, `4.5M cycles`). Three significant digits, trailing zeros dropped.
 */

const TIME_UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  ms: 1e-3,
  msec: 1e-3,
  millisecond: 1e-3,
  milliseconds: 1e-3,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  usec: 1e-6,
  microsecond: 1e-6,
  microseconds: 1e-6,
  ns: 1e-9,
  nsec: 1e-9,
  nanosecond: 1e-9,
  nanoseconds: 1e-9,
};

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** Units that are plain counts: shown as `12.3k`, without a unit suffix. */
const COUNT_UNITS = new Set(['', 'count', 'counts', '#', 'n', 'number']);

/** `value` with three significant digits, trailing zeros (and a trailing dot) removed. */
export function formatSignificant(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return value > 0 ? '∞' : value < 0 ? '−∞' : '–';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  const magnitude = Math.floor(Math.log10(abs));
  const decimals = Math.max(0, digits - 1 - magnitude);
  let text = abs.toFixed(decimals);
  // Rounding can carry into a new digit (999.6 → "1000"); that is still the right value.
  if (text.includes('.')) text = text.replace(/\.?0+$/, '');
  return (value < 0 ? '−' : '') + text;
}

/** Formats `value` given in `unit` (seconds, ms, bytes, a count…) for humans. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return formatSignificant(value);
  const u = unit.trim();
  const key = u.toLowerCase();
  if (key in TIME_UNITS || u in TIME_UNITS) return formatSeconds(value * (TIME_UNITS[key] ?? TIME_UNITS[u]!));
  if (key in BYTE_UNITS) return formatBytes(value * BYTE_UNITS[key]!);
  const count = formatCount(value);
  return COUNT_UNITS.has(key) ? count : `${count} ${u}`;
}

/** `12.3 s`, `845 ms`, `3.1 µs`, `12 ns`; long times in min / h. */
export function formatSeconds(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs === 0) return '0 s';
  if (abs >= 3600 * 10) return `${formatSignificant(seconds / 3600)} h`;
  if (abs >= 999.5) return `${formatSignificant(seconds / 60)} min`;
  if (abs >= 0.9995) return `${formatSignificant(seconds)} s`;
  if (abs >= 1e-3 * 0.9995) return `${formatSignificant(seconds * 1e3)} ms`;
  if (abs >= 1e-6 * 0.9995) return `${formatSignificant(seconds * 1e6)} µs`;
  return `${formatSignificant(seconds * 1e9)} ns`;
}

/** `512 B`, `1.5 KiB`, `3.2 GiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? formatSignificant(Math.round(v)) : formatSignificant(v)} ${units[i]}`;
}

/** `950`, `12.3k`, `4.5M`, `1.2G`, `3T`; small fractional values keep three significant digits. */
export function formatCount(value: number): string {
  const suffixes = ['', 'k', 'M', 'G', 'T'];
  let v = value;
  let i = 0;
  // Compare after rounding, so 999,950 becomes "1M" rather than "1000k".
  while (i < suffixes.length - 1 && Number(Math.abs(v).toPrecision(3)) >= 1000) {
    v /= 1000;
    i++;
  }
  return formatSignificant(v) + suffixes[i];
}

/** A 0..1 share as a percentage: `45.2%`, `4.6%`, `<0.1%`, `100%`. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return '–';
  const pct = share * 100;
  if (pct === 0) return '0%';
  if (Math.abs(pct) < 0.1) return pct > 0 ? '<0.1%' : '>−0.1%';
  if (Math.abs(pct) >= 99.95 && Math.abs(pct) < 100.05) return pct > 0 ? '100%' : '−100%';
  return `${pct.toFixed(1).replace(/\.0$/, '').replace('-', '−')}%`;
}

/** Max/mean imbalance factor: `1.42×`. */
export function formatImbalance(factor: number): string {
  if (!Number.isFinite(factor)) return '–';
  return `${factor.toFixed(2)}×`;
}

/** `file:line`, or just the file when the line is unknown. Long paths keep their tail. */
export function formatLocation(file: string, line: number | null, maxLength = 60): string {
  let f = file;
  if (f.length > maxLength) f = '…' + f.slice(f.length - maxLength + 1);
  return line == null ? f : `${f}:${line}`;
}
