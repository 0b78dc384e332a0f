/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's communication matrix (thesis §7.4): rows copy to columns, the host and each GPU, each cell
 * the bytes copied in the window on a white → red scale, with the link type between two GPUs when
 * `nvidia-smi topo -m` was added. Hovering tells count, bytes, achieved bandwidth and link type; a
 * click lists the cell's copies and the lines that issued them (a line click opens it).
 */
import { useState } from 'react';
import type { CommunicationMatrix, MatrixCell } from '../../../../src/analysis/dmv/matrix';
import type { DmvCellCopies } from '../../../../src/analysis/dmv/panel-data';
import { formatBytes, formatCount, formatSeconds } from '../../../../src/analysis/stats/format';
import { matrixFill, matrixText } from './dmv-geometry';

export interface MatrixLayout {
  /** Width of the row labels, px. */
  labelWidth: number;
  /** Height of the column labels, px. */
  headerHeight: number;
  cell: number;
  width: number;
  height: number;
}

/** Square cells filling `width` (at most 64 px, at least 26 px: a wide matrix scrolls). */
export function matrixLayout(devices: number, width: number): MatrixLayout {
  const labelWidth = 64,
    headerHeight = 22;
  const cell = Math.max(26, Math.min(64, Math.floor((width - labelWidth - 4) / Math.max(1, devices))));
  return {
    labelWidth,
    headerHeight,
    cell,
    width: labelWidth + cell * devices,
    height: headerHeight + cell * devices,
  };
}

/** Average width of a label glyph at the labels' 11 px (0.62 em, generous for digits and capitals). */
const LABEL_GLYPH = 11 * 0.62;

/**
 * A column's label: the device's name, or when the cell is too narrow for it (8 GPUs in a side
 * panel) the short form `G7` (`?` for unknown); the row labels keep the full names.
 */
export function columnLabel(name: string, cell: number): string {
  if (name.length * LABEL_GLYPH <= cell - 4) return name;
  return name === 'unknown' ? '?' : name.replace(/^GPU /, 'G');
}

/** `host → GPU 0: 12 copies, 116 MB, 9.8 GB/s achieved, link NV2`. */
export function cellTooltip(m: CommunicationMatrix, c: MatrixCell): string {
  const name = (d: number) => m.names[m.devices.indexOf(d)] ?? String(d);
  let text = `${name(c.src)} → ${name(c.dst)}: ${formatCount(c.count)} ${c.count === 1 ? 'copy' : 'copies'}, ${formatBytes(c.bytes)}`;
  if (c.bandwidth !== null) text += `, ${formatBytes(c.bandwidth)}/s achieved`;
  if (c.durationNs > 0) text += ` in ${formatSeconds(c.durationNs * 1e-9)}`;
  if (c.withoutBytes > 0) text += `; ${formatCount(c.withoutBytes)} without a size (unknown)`;
  if (c.migrations > 0)
    text += `; ${formatCount(c.migrations)} unified-memory migrations (${formatBytes(c.migrationBytes)})`;
  text += c.linkType
    ? `; link ${c.linkType}`
    : c.src >= 0 && c.dst >= 0 && c.src !== c.dst
      ? '; link type unknown'
      : '';
  return text;
}

export function MatrixView({
  matrix,
  width,
  selected,
  onCell,
}: {
  matrix: CommunicationMatrix;
  width: number;
  selected: { src: number; dst: number } | null;
  onCell: (src: number, dst: number) => void;
}) {
  const [hover, setHover] = useState<MatrixCell | null>(null);
  const n = matrix.devices.length;
  const L = matrixLayout(n, width);
  const withBytes = matrix.cells.filter(c => c.bytes > 0).length;
  return (
    <div className="dmv-matrix" data-devices={n} data-cells-with-bytes={withBytes}>
      {matrix.warnings.map((w, i) => (
        <div key={i} className="dmv-warning" role="status" data-matrix-warning="">
          {w}
        </div>
      ))}
      <svg width={L.width} height={L.height} role="grid" aria-label="bytes copied from row to column">
        {matrix.names.map((name, j) => (
          <text
            key={`c${j}`}
            className="dmv-matrix-label"
            x={L.labelWidth + (j + 0.5) * L.cell}
            y={L.headerHeight - 7}
            textAnchor="middle"
          >
            {columnLabel(name, L.cell)}
          </text>
        ))}
        {matrix.names.map((name, i) => (
          <text
            key={`r${i}`}
            className="dmv-matrix-label"
            x={L.labelWidth - 6}
            y={L.headerHeight + (i + 0.5) * L.cell + 4}
            textAnchor="end"
          >
            {name}
          </text>
        ))}
        {matrix.cells.map((c, k) => {
          const i = Math.floor(k / n),
            j = k % n;
          const x = L.labelWidth + j * L.cell,
            y = L.headerHeight + i * L.cell;
          const fill = matrixFill(c.bytes, matrix.maxBytes);
          const isSelected = selected?.src === c.src && selected.dst === c.dst;
          return (
            <g
              key={k}
              className={'dmv-cell' + (isSelected ? ' is-selected' : '') + (fill ? '' : ' is-empty')}
              data-src={c.src}
              data-dst={c.dst}
              data-bytes={Math.round(c.bytes)}
              data-count={c.count}
              data-link={c.linkType ?? ''}
              onClick={() => onCell(c.src, c.dst)}
              onMouseEnter={() => setHover(c)}
              onMouseLeave={() => setHover(h => (h === c ? null : h))}
            >
              <rect
                x={x + 1}
                y={y + 1}
                width={L.cell - 2}
                height={L.cell - 2}
                rx={2}
                style={fill ? { fill } : undefined}
              />
              {c.bytes > 0 && L.cell >= 44 ? (
                <text
                  x={x + L.cell / 2}
                  y={y + L.cell / 2 + (c.linkType ? -1 : 4)}
                  textAnchor="middle"
                  style={{ fill: matrixText(c.bytes, matrix.maxBytes) }}
                  pointerEvents="none"
                >
                  {formatBytes(c.bytes)}
                </text>
              ) : null}
              {c.linkType && L.cell >= 30 ? (
                <text
                  className="dmv-link-type"
                  x={x + L.cell / 2}
                  y={y + L.cell - 7}
                  textAnchor="middle"
                  style={fill ? { fill: matrixText(c.bytes, matrix.maxBytes) } : undefined}
                  pointerEvents="none"
                >
                  {c.linkType}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <div className="dmv-hint" data-matrix-hover={hover ? `${hover.src}:${hover.dst}` : ''}>
        {hover
          ? cellTooltip(matrix, hover)
          : matrix.unknown.withoutDevices + matrix.unknown.withoutBytes > 0
            ? `${formatCount(matrix.unknown.withoutDevices)} copies without a device and ${formatCount(matrix.unknown.withoutBytes)} without a size are counted as unknown.`
            : 'Rows copy to columns. Click a cell to list its copies and the lines that issued them.'}
      </div>
    </div>
  );
}

const loc = (file: string, line: number | null) => `${file.split('/').pop()}${line !== null ? `:${line}` : ''}`;

/** A clicked cell's issuing lines and copies. */
export function CellCopiesView({
  data,
  onOpen,
}: {
  data: DmvCellCopies;
  onOpen: (file: string, line: number | null, name: string) => void;
}) {
  return (
    <div
      className="dmv-cell-copies"
      data-cell={`${data.src}:${data.dst}`}
      data-copies={data.copies.length}
      data-sites={data.sites.length}
    >
      <div className="dmv-subtitle">
        {data.label}: {formatCount(data.count)} {data.count === 1 ? 'copy' : 'copies'}, {formatBytes(data.bytes)}
        {data.window ? ' in the window' : ''}
      </div>
      {data.count === 0 ? <div className="dmv-hint">No copies here.</div> : null}
      {data.sites.length ? (
        <table className="dmv-table">
          <thead>
            <tr>
              <th>issuing line</th>
              <th className="num">copies</th>
              <th className="num">bytes</th>
            </tr>
          </thead>
          <tbody>
            {data.sites.map((s, i) => (
              <tr key={i} data-site={s.file ? `${s.file}:${s.line}` : s.name}>
                <td>
                  {s.file ? (
                    <button
                      className="dmv-link"
                      title={`${s.file}:${s.line} (${s.name})`}
                      onClick={() => onOpen(s.file!, s.line, s.name)}
                    >
                      {loc(s.file, s.line)}
                    </button>
                  ) : (
                    <span title="no frame of the call path has a source line">{s.name}</span>
                  )}
                </td>
                <td className="num">{formatCount(s.total.count)}</td>
                <td className="num">{formatBytes(s.total.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data.copies.length ? (
        <table className="dmv-table dmv-copies">
          <thead>
            <tr>
              <th className="num">start</th>
              <th className="num">time</th>
              <th className="num">bytes</th>
              <th>memory</th>
              <th>line</th>
            </tr>
          </thead>
          <tbody>
            {data.copies.map(c => (
              <tr key={c.row} data-copy={c.row}>
                <td className="num">{formatSeconds(c.start * 1e-9)}</td>
                <td className="num">{formatSeconds(c.duration * 1e-9)}</td>
                <td className="num">{formatBytes(c.bytes)}</td>
                <td>{c.memory ?? c.direction}</td>
                <td>
                  {c.file ? (
                    <button
                      className="dmv-link"
                      title={`${c.file}:${c.line} (${c.name})`}
                      onClick={() => onOpen(c.file!, c.line, c.name)}
                    >
                      {loc(c.file, c.line)}
                    </button>
                  ) : (
                    c.name
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data.truncated > 0 ? <div className="dmv-hint">and {formatCount(data.truncated)} more copies</div> : null}
    </div>
  );
}
