/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's hardware view (thesis §7.4, view F): the host and the GPUs of `deviceProperties` (and of
 * `nvidia-smi topo -m` when added), coloured by their utilisation in the window, with the bytes the
 * window's copies moved over each link. The topology is drawn by the shared topology component
 * (`graph` layout); below it the devices with their properties and the links with their traffic.
 */
import type { HardwareView } from '../../../../src/analysis/dmv/hardware';
import type { TopologyViewData } from '../../../../src/shared/topology-protocol';
import { TopologyView } from '../../components/topology';
import { formatBytes, formatShare } from '../../../../src/analysis/stats/format';
import { matrixFill, matrixText } from './dmv-geometry';

/** One row per device: the host, then the GPUs by id. */
export function hardwareRows(hw: HardwareView): {
  node: number;
  label: string;
  detail: string;
  utilisation: number;
  bytes: number;
}[] {
  const rows = [
    {
      node: hw.host,
      label: 'host',
      detail: 'CPU threads with runtime or CPU work',
      utilisation: hw.utilisation.node[hw.host]!,
      bytes: hw.traffic.node[hw.host]!,
    },
  ];
  for (const g of hw.gpus)
    rows.push({
      node: g.node,
      label: `GPU ${g.device}`,
      detail: [
        g.name,
        g.totalGlobalMem !== null ? `${formatBytes(g.totalGlobalMem)}` : null,
        g.numSms !== null ? `${g.numSms} SMs` : null,
        g.computeCapability !== null ? `CC ${g.computeCapability}` : null,
      ]
        .filter(Boolean)
        .join(' · '),
      utilisation: hw.utilisation.node[g.node]!,
      bytes: hw.traffic.node[g.node]!,
    });
  return rows;
}

const name = (d: number) => (d < 0 ? 'host' : `GPU ${d}`);

/** Height of the topology drawing for a card `width` px wide (room for a host over a row of up to 8 GPUs and the legend). */
export function hardwareDrawingHeight(width: number, gpus: number): number {
  return Math.round(Math.max(200, Math.min(340, width * 0.45 + (gpus > 4 ? 40 : 0))));
}

/** The topology marks of the devices at the ends of a matrix cell (the host or `GPU n`), to highlight. */
export function cellDeviceMarks(hw: HardwareView, cell: { src: number; dst: number } | null): string[] {
  if (!cell) return [];
  const nodeOf = (d: number) => (d < 0 ? hw.host : hw.gpus.find(g => g.device === d)?.node);
  return [...new Set([cell.src, cell.dst].map(nodeOf).filter((n): n is number => n !== undefined))].map(n => `n${n}`);
}

export function HardwareDevices({
  hw,
  drawing,
  width,
  cell,
  onCapacity,
}: {
  hw: HardwareView;
  drawing: TopologyViewData;
  width: number;
  /** The matrix cell selected: its two devices are highlighted in the drawing. */
  cell: { src: number; dst: number } | null;
  /** The drawing's capacity at its size: the window's next drawing folds the GPUs it cannot hold. */
  onCapacity?: (capacity: number) => void;
}) {
  const rows = hardwareRows(hw);
  const links = hw.topology.links.map((l, k) => ({ ...l, k, bytes: hw.traffic.link[k]!, ends: hw.linkDevices[k]! }));
  const busiest = links.filter(l => l.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  return (
    <div className="dmv-hardware" data-gpus={hw.gpus.length} data-links={links.length}>
      <TopologyView
        data={drawing}
        width={width}
        height={hardwareDrawingHeight(width, hw.gpus.length)}
        highlighted={cellDeviceMarks(hw, cell)}
        {...(onCapacity ? { onCapacityChange: onCapacity } : {})}
        ariaLabel="host and GPUs, coloured by utilisation in the window; links as wide as the bytes copied over them"
      />
      <table className="dmv-table">
        <thead>
          <tr>
            <th>device</th>
            <th className="num">busy</th>
            <th className="num">copied</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(r => {
            const u = Number.isFinite(r.utilisation) ? r.utilisation : NaN;
            const fill = Number.isFinite(u) ? matrixFill(u, 100) : null;
            return (
              <tr key={r.node} data-device={r.label} data-utilisation={Number.isFinite(u) ? u.toFixed(2) : ''}>
                <td>
                  <div className="dmv-device-name">{r.label}</div>
                  {r.detail ? <div className="dmv-device-detail">{r.detail}</div> : null}
                </td>
                <td className="num">
                  <span
                    className="dmv-utilisation"
                    style={fill ? { background: fill, color: matrixText(u, 100) } : undefined}
                    title="share of the window the device was busy (GPU: copies or kernels on any stream; host: mean over its CPU threads)"
                  >
                    {Number.isFinite(u) ? formatShare(u / 100) : '–'}
                  </span>
                </td>
                <td className="num">{r.bytes > 0 ? formatBytes(r.bytes) : '0 B'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {busiest.length ? (
        <div className="dmv-links">
          {busiest.map(l => (
            <div key={l.k} className="dmv-link-row" data-link={`${l.ends[0]}:${l.ends[1]}`}>
              {name(l.ends[0])} ↔ {name(l.ends[1])} <span className="dmv-muted">({l.kind})</span>:{' '}
              {formatBytes(l.bytes)}
            </div>
          ))}
        </div>
      ) : (
        <div className="dmv-hint">No copies in the window.</div>
      )}
    </div>
  );
}
