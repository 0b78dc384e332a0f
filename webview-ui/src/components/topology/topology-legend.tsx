/** @jsxRuntime automatic */
/**
 * The legend of a topology view: the colour scale with its range per level (or overall) and unit,
 * what link width stands for with the widest value per level, and the link kinds drawn (or the link
 * colour scale). HTML beside or below the drawing, so it never competes with the marks for room.
 */
import { useId, type CSSProperties } from 'react';
import type {
  TopologyColourEncoding,
  TopologyRange,
  TopologyViewData,
  TopologyViewMeasure,
} from '../../../../src/shared/topology-protocol';
import { formatValue } from '../../format';
import { schemeStops } from './topology-colours';

/** How a link kind is named in the legend and tooltips. */
export function linkKindLabel(kind: string): string {
  const nv = /^NV(\d+)$/.exec(kind);
  if (nv) return `NVLink ×${nv[1]}`;
  const names: Record<string, string> = {
    G: 'global',
    L: 'local',
    CN: 'terminal',
    contains: 'to parent',
    host: 'host ↔ GPU',
    PIX: 'PCIe, one switch (PIX)',
    PXB: 'PCIe bridges (PXB)',
    PHB: 'PCIe host bridge (PHB)',
    NODE: 'within a NUMA node (NODE)',
    SYS: 'across sockets (SYS)',
    SOC: 'across sockets (SOC)',
    'cross-socket': 'cross-socket',
    'on-socket': 'on-socket',
  };
  return names[kind] ?? kind;
}

/** The CSS class of a link kind (colour and dash pattern in topology.css). */
export function linkKindClass(kind: string): string {
  if (/^NV\d+$/.test(kind)) return 'is-nvlink';
  switch (kind) {
    case 'G':
      return 'is-global';
    case 'L':
      return 'is-local';
    case 'CN':
      return 'is-terminal';
    case 'contains':
      return 'is-contains';
    case 'host':
      return 'is-host';
    case 'PIX':
    case 'PXB':
    case 'PHB':
      return 'is-pcie';
    case 'NODE':
    case 'SYS':
    case 'SOC':
      return 'is-system';
    case 'cross-socket':
    case 'on-socket':
      return 'is-socket';
    default:
      return 'is-other';
  }
}

/** Levels in the order they are drawn (first appearance), with the level's printed name. */
function levelsOf(data: TopologyViewData, which: 'nodes' | 'links'): { key: string; label: string }[] {
  const seen = new Set<string>();
  const out: { key: string; label: string }[] = [];
  if (which === 'nodes') {
    for (const n of data.nodes) {
      if (n.parent === null || seen.has(n.kind)) continue;
      seen.add(n.kind);
      out.push({ key: n.kind, label: data.levelLabels[n.kind] ?? n.kind });
    }
  } else {
    for (const l of data.links) {
      if (seen.has(l.level)) continue;
      seen.add(l.level);
      const name =
        l.kind === 'contains'
          ? `→ ${data.levelLabels[l.level as keyof typeof data.levelLabels] ?? l.level}`
          : linkKindLabel(l.kind);
      out.push({ key: l.level, label: name });
    }
  }
  return out;
}

const range = (r: TopologyRange | null | undefined, unit: string) =>
  r ? (r.min === r.max ? formatValue(r.max, unit) : `${formatValue(r.min, unit)} – ${formatValue(r.max, unit)}`) : '–';

function Gradient({ scheme, id }: { scheme: TopologyColourEncoding['scheme']; id: string }) {
  return (
    <svg
      className="topology-legend-ramp"
      width="100%"
      height="10"
      preserveAspectRatio="none"
      viewBox="0 0 100 10"
      aria-hidden="true"
    >
      <defs>
        <linearGradient id={id} x1="0" x2="1" y1="0" y2="0">
          {schemeStops(scheme).map(s => (
            <stop key={s.offset} offset={s.offset} stopColor={s.colour} />
          ))}
        </linearGradient>
      </defs>
      <rect width="100" height="10" fill={`url(#${id})`} />
    </svg>
  );
}

function ScaleBlock({
  title,
  measure,
  encoding,
  levels,
  id,
}: {
  title: string;
  measure: TopologyViewMeasure;
  encoding: TopologyColourEncoding;
  levels: { key: string; label: string }[];
  id: string;
}) {
  const fixed = encoding.domain;
  const perLevel = !fixed && encoding.normalise === 'depth';
  return (
    <div className="topology-legend-block" data-legend="colour">
      <div className="topology-legend-title">
        {title}: <strong>{measure.name}</strong>
        {perLevel ? <span className="topology-muted"> · per level</span> : null}
      </div>
      <Gradient scheme={encoding.scheme} id={id} />
      {perLevel ? (
        <table className="topology-legend-table">
          <tbody>
            {levels
              .filter(l => measure.byLevel[l.key])
              .map(l => (
                <tr key={l.key}>
                  <td>{l.label}</td>
                  <td>{range(measure.byLevel[l.key], measure.unit)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      ) : (
        <div className="topology-legend-ends">
          <span>{formatValue(fixed ? fixed[0] : (measure.all?.min ?? 0), measure.unit)}</span>
          <span>{formatValue(fixed ? fixed[1] : (measure.all?.max ?? 0), measure.unit)}</span>
        </div>
      )}
    </div>
  );
}

export function TopologyLegend({
  data,
  colour,
  placement,
  selectedCount,
  style,
}: {
  data: TopologyViewData;
  colour: TopologyColourEncoding;
  placement: 'side' | 'below';
  selectedCount: number;
  style?: CSSProperties;
}) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const nodeMeasure = colour.measure >= 0 ? data.nodeMeasures[colour.measure] : undefined;
  const widthMeasure = data.width.measure >= 0 ? data.linkMeasures[data.width.measure] : undefined;
  const linkColourMeasure = data.linkColour.measure >= 0 ? data.linkMeasures[data.linkColour.measure] : undefined;
  const linkLevels = levelsOf(data, 'links');
  const kinds = [...new Set(data.links.map(l => l.kind))];
  return (
    <div className={`topology-legend is-${placement}`} style={style} data-legend-placement={placement}>
      {nodeMeasure ? (
        <ScaleBlock
          title="Colour"
          measure={nodeMeasure}
          encoding={colour}
          levels={levelsOf(data, 'nodes')}
          id={`${uid}-n`}
        />
      ) : null}
      {widthMeasure && data.links.length ? (
        <div className="topology-legend-block" data-legend="width">
          <div className="topology-legend-title">
            Link width ∝ <strong>{widthMeasure.name}</strong>
            {data.width.normalise === 'depth' ? <span className="topology-muted"> · per level</span> : null}
          </div>
          <table className="topology-legend-table">
            <tbody>
              {data.width.normalise === 'depth' ? (
                linkLevels
                  .filter(l => widthMeasure.byLevel[l.key])
                  .map(l => (
                    <tr key={l.key}>
                      <td>{l.label}</td>
                      <td>widest {formatValue(widthMeasure.byLevel[l.key]!.max, widthMeasure.unit)}</td>
                    </tr>
                  ))
              ) : (
                <tr>
                  <td>widest</td>
                  <td>{formatValue(widthMeasure.all?.max ?? 0, widthMeasure.unit)}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      {linkColourMeasure ? (
        <ScaleBlock
          title="Link colour"
          measure={linkColourMeasure}
          encoding={data.linkColour}
          levels={linkLevels}
          id={`${uid}-l`}
        />
      ) : kinds.length ? (
        <div className="topology-legend-block" data-legend="kinds">
          <div className="topology-legend-title">Links</div>
          <ul className="topology-legend-kinds">
            {kinds.map(k => (
              <li key={k}>
                <svg width="22" height="8" aria-hidden="true">
                  <line
                    x1="1"
                    x2="21"
                    y1="4"
                    y2="4"
                    className={`topology-link ${linkKindClass(k)}`}
                    strokeWidth={2.5}
                  />
                </svg>
                {linkKindLabel(k)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {selectedCount ? (
        <div className="topology-legend-block topology-muted">
          {selectedCount} selected · <kbd>Esc</kbd> clears
        </div>
      ) : null}
    </div>
  );
}
