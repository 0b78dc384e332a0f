/** @jsxRuntime automatic */
/**
 * The code and variable views (MemAxes §6.1, "top offenders"): the focus's top files with their
 * top lines and its top variables, ranked by summed latency (cycles), each a bar stacked by the
 * level that served the loads. A click selects the row's samples (with the current mode); a
 * double-click on a line opens it in the editor. Facts: `.memory-line-bar[data-file][data-line]`,
 * `.memory-variable-bar[data-variable]`.
 */
import type { MemoryCostRow, MemoryPanelData } from '../../../../src/shared/memory-protocol';
import { MEMORY_LEVELS } from '../../../../src/shared/memory-protocol';
import { formatCycles, formatLevelShare } from '../../../../src/analysis/stats/memory-format';
import { levelSegments } from './memory-layout';

/** Width of the bar area; labels and values take the rest of the row. */
const BAR_WIDTH = 160;

function rowTitle(what: string, row: MemoryCostRow): string {
  const parts = [`${what}: ${formatCycles(row.cycles)} in ${row.samples} samples`];
  for (const l of [1, 2, 3, 4, 0]) {
    const s = row.levelSamples[l] ?? 0;
    if (s > 0)
      parts.push(
        `${MEMORY_LEVELS[l]}: ${s} samples (${formatLevelShare(s / row.samples)}), ${formatCycles(row.levelCycles[l] ?? 0)}`,
      );
  }
  return parts.join('\n');
}

function LevelBar({ row, scale }: { row: MemoryCostRow; scale: number }) {
  return (
    <svg className="memory-level-bar" width={BAR_WIDTH} height={12} aria-hidden="true">
      <rect className="memory-level-track" x={0} y={0} width={BAR_WIDTH} height={12} />
      {levelSegments(row, scale, BAR_WIDTH).map(s => (
        <rect
          key={s.level}
          className={`memory-level memory-level-${s.level}`}
          x={s.x}
          y={0}
          width={s.width}
          height={12}
        />
      ))}
    </svg>
  );
}

export function LevelLegend() {
  return (
    <div className="memory-level-legend" aria-label="Serving levels">
      {[1, 2, 3, 4, 0].map(l => (
        <span key={l} className="memory-legend-item">
          <span className={`memory-legend-swatch memory-level-${l}`} />
          {MEMORY_LEVELS[l]}
        </span>
      ))}
    </div>
  );
}

export interface CodeBarsProps {
  data: MemoryPanelData;
  onSelectLine: (file: string, line: number, additive: boolean) => void;
  onSelectFile: (file: string, additive: boolean) => void;
  onOpenLine: (file: string, line: number) => void;
}

export interface VariableBarsProps {
  data: MemoryPanelData;
  onSelectVariable: (name: string, additive: boolean) => void;
}

/** Top files and their lines. */
export function CodeBars({ data, onSelectLine, onSelectFile, onOpenLine }: CodeBarsProps) {
  const scale = Math.max(0, ...data.files.flatMap(f => f.lines.map(l => l.cycles)));
  if (!data.files.length) return <p className="memory-empty">No source lines among the samples in focus.</p>;
  return (
    <div className="memory-code-bars">
      {data.files.map(f => (
        <div key={f.file} className="memory-file">
          <button
            className="memory-file-head"
            data-file-head={f.file}
            title={`${f.file}: ${formatCycles(f.cycles)} in ${f.samples} samples. Click selects its samples.`}
            onClick={e => onSelectFile(f.file, e.shiftKey)}
          >
            <span className="memory-file-name">{f.file}</span>
            <span className="memory-value">{formatCycles(f.cycles)}</span>
          </button>
          {f.lines.map(l => (
            <button
              key={l.line}
              className="memory-row memory-line-bar"
              data-file={f.file}
              data-line={l.line}
              data-cycles={l.cycles}
              title={`${rowTitle(`${f.file}:${l.line}`, l)}\nClick selects, shift-click adds, double-click opens the line.`}
              onClick={e => onSelectLine(f.file, l.line, e.shiftKey)}
              onDoubleClick={() => onOpenLine(f.file, l.line)}
            >
              <span className="memory-row-label">{l.line > 0 ? `line ${l.line}` : 'unknown line'}</span>
              <LevelBar row={l} scale={scale} />
              <span className="memory-value">{formatCycles(l.cycles)}</span>
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}

/** Top variables. */
export function VariableBars({ data, onSelectVariable }: VariableBarsProps) {
  const scale = Math.max(0, ...data.variables.map(v => v.cycles));
  if (!data.variables.length) return <p className="memory-empty">No variables among the samples in focus.</p>;
  return (
    <div className="memory-variable-bars">
      {data.variables.map(v => (
        <button
          key={v.name}
          className="memory-row memory-variable-bar"
          data-variable={v.name}
          data-cycles={v.cycles}
          title={`${rowTitle(v.name, v)}\nClick selects, shift-click adds.`}
          onClick={e => onSelectVariable(v.name, e.shiftKey)}
        >
          <span className="memory-row-label memory-variable-name">{v.name}</span>
          <LevelBar row={v} scale={scale} />
          <span className="memory-value">{formatCycles(v.cycles)}</span>
        </button>
      ))}
    </div>
  );
}
