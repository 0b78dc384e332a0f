/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's flags: the data-movement anti-patterns found in the trace (pageable copies, H↔D copies
 * alternating around short kernels, small-copy storms, copies no compute overlaps, unified-memory
 * fault storms), each on the line that issued it. Selecting a flag makes its time span the window
 * of every view; its line opens in the editor.
 */
import type { DmvFlag } from '../../../../src/analysis/dmv/flags';
import { formatBytes, formatCount, formatSeconds } from '../../../../src/analysis/stats/format';
import { FLAG_LABELS } from '../../../../src/shared/dmv-protocol';

/** The key a flag is selected by (kind and issuing site). */
export function flagKey(f: Pick<DmvFlag, 'kind' | 'file' | 'line' | 'name'>): string {
  return `${f.kind}|${f.file ?? ''}|${f.line ?? ''}|${f.file ? '' : f.name}`;
}

export function FlagsView({
  flags,
  selected,
  onSelect,
  onOpen,
}: {
  flags: DmvFlag[];
  selected: string | null;
  onSelect: (flag: DmvFlag) => void;
  onOpen: (file: string, line: number | null, name: string) => void;
}) {
  if (flags.length === 0)
    return (
      <div className="dmv-hint" data-flags="0">
        No data-movement anti-pattern found: no pageable copies, alternating transfers, small-copy storms, exposed
        copies or page-fault storms.
      </div>
    );
  return (
    <ul className="dmv-flags dmv-scroll" data-flags={flags.length}>
      {flags.map(f => {
        const key = flagKey(f);
        const site = f.file ? `${f.file.split('/').pop()}${f.line !== null ? `:${f.line}` : ''}` : f.name;
        return (
          <li
            key={key}
            className={'dmv-flag' + (key === selected ? ' is-selected' : '')}
            data-flag={f.kind}
            data-file={f.file ?? ''}
            data-line={f.line ?? ''}
            data-selected={key === selected ? 'true' : 'false'}
            onClick={() => onSelect(f)}
          >
            <div className="dmv-flag-head">
              <span className="dmv-flag-icon" aria-hidden="true">
                ⚠
              </span>
              <span className="dmv-flag-kind">{FLAG_LABELS[f.kind]}</span>
              {f.file ? (
                <button
                  className="dmv-link"
                  title={`Open ${f.file}:${f.line ?? ''}`}
                  onClick={e => {
                    e.stopPropagation();
                    onOpen(f.file!, f.line, f.name);
                  }}
                >
                  {site}
                </button>
              ) : (
                <span className="dmv-flag-site" title="no frame of the call path has a source line">
                  {site}
                </span>
              )}
              <span className="dmv-flag-count">
                {formatCount(f.count)}
                {f.kind === 'uvm-fault-storm' ? ' faults' : f.bytes > 0 ? ` · ${formatBytes(f.bytes)}` : ''}
              </span>
            </div>
            <div className="dmv-flag-message">{f.message}</div>
            <div className="dmv-flag-span">
              {formatSeconds(f.start * 1e-9)} – {formatSeconds(f.end * 1e-9)}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
