/**
 * Human formatting of metric values with their unit (`12.3 s`, `845 ms`, `1.2 GB`, `3.4k`). A value
 * that is not finite (a bug upstream: readers reject such input) shows as "—", never as
 * `Infinity` or `NaN`.
 */
export const NOT_A_NUMBER = '—';

const TIME_SCALE: Record<string, number> = { s: 1, ms: 1e-3, µs: 1e-6, ns: 1e-9 };

export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return NOT_A_NUMBER;
  const scale = TIME_SCALE[unit];
  if (scale !== undefined) return formatSeconds(value * scale);
  if (unit === 'bytes') return formatBytes(value);
  const s = formatCount(value);
  return unit && unit !== 'count' ? `${s} ${unit}` : s;
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return NOT_A_NUMBER;
  const a = Math.abs(s);
  if (a === 0) return '0 s';
  if (a >= 3600) return `${(s / 3600).toFixed(2)} h`;
  if (a >= 1) return `${trim(s, 3)} s`;
  if (a >= 1e-3) return `${trim(s * 1e3, 3)} ms`;
  if (a >= 1e-6) return `${trim(s * 1e6, 3)} µs`;
  return `${trim(s * 1e9, 3)} ns`;
}

export function formatBytes(b: number): string {
  if (!Number.isFinite(b)) return NOT_A_NUMBER;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = b,
    i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${trim(v, 3)} ${units[i]}`;
}

export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  const a = Math.abs(n);
  if (a >= 1e15) return n.toExponential(2);
  if (a >= 1e12) return `${trim(n / 1e12, 3)}T`;
  if (a >= 1e9) return `${trim(n / 1e9, 3)}G`;
  if (a >= 1e6) return `${trim(n / 1e6, 3)}M`;
  if (a >= 1e4) return `${trim(n / 1e3, 3)}k`;
  return Number.isInteger(n) ? String(n) : trim(n, 3);
}

export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return NOT_A_NUMBER;
  const p = share * 100;
  if (p === 0) return '0%';
  if (Math.abs(p) < 0.1) return '<0.1%';
  return `${p >= 10 ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** `digits` significant digits, without trailing zeros. */
function trim(v: number, digits: number): string {
  return String(Number(v.toPrecision(digits)));
}
