/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * "Show filtered callees (k)" (thesis §3.5): the functions the filter folded into one bar, largest
 * first, with their inclusive value, how many calling contexts they were folded from and the
 * heaviest one's file:line. Choosing a function draws its instances again under the bar; the
 * location opens the source; functions shown again are listed with "Hide again". Both CallFlow
 * panels use it.
 */
import { formatLocation, formatShare, formatValue } from '../format';

export interface FilteredCalleeRow {
  name: string;
  /** Inclusive value folded (the ensemble: max over runs). */
  value: number;
  /** Call-tree instances folded. */
  count: number;
  file: string | null;
  line: number | null;
}

export function FilteredCallees({
  title,
  callees,
  total,
  unit,
  grandTotal,
  shownAgain,
  at,
  onRepopulate,
  onOpen,
  onHideAgain,
  onClose,
}: {
  /** The bar's label. */
  title: string;
  callees: readonly FilteredCalleeRow[];
  /** How many functions were folded in all (more than `callees` when the host capped the list). */
  total: number;
  unit: string;
  /** 100 % for the shares. */
  grandTotal: number;
  /** Functions shown again under this bar. */
  shownAgain: readonly string[];
  at: { x: number; y: number };
  onRepopulate: (name: string) => void;
  onOpen: (index: number) => void;
  onHideAgain: (name: string) => void;
  onClose: () => void;
}) {
  const capped = total - callees.length;
  return (
    <div
      className="callflow-menu callflow-callees"
      role="dialog"
      aria-label={`Functions filtered into ${title}`}
      data-callees-of={title}
      style={{ left: at.x, top: at.y }}
      onClick={e => e.stopPropagation()}
      onKeyDown={e => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="callflow-menu-title">
        Filtered into {title} ({total.toLocaleString('en')})
      </div>
      {callees.length === 0 ? <div className="callflow-callees-empty">The filter folded no function here.</div> : null}
      <ul className="callflow-callees-list">
        {callees.map((c, i) => (
          <li key={c.name} className="callflow-callee">
            <button
              className="callflow-menu-item callflow-callee-name"
              data-callee={c.name}
              title={`Show ${c.name} again under ${title}`}
              onClick={() => onRepopulate(c.name)}
            >
              <code>{c.name}</code>
              <span className="callflow-callee-value">
                {formatValue(c.value, unit)}
                {grandTotal > 0 ? ` · ${formatShare(c.value / grandTotal)}` : ''}
                {c.count > 1 ? ` · ${c.count.toLocaleString('en')}×` : ''}
              </span>
            </button>
            {c.file ? (
              <button
                className="callflow-callee-source"
                data-callee-source={c.name}
                title={`Open ${formatLocation(c.file, c.line, 200)}`}
                onClick={() => onOpen(i)}
              >
                {formatLocation(c.file.slice(c.file.lastIndexOf('/') + 1), c.line)}
              </button>
            ) : (
              <span className="callflow-callee-source is-unknown">no source</span>
            )}
          </li>
        ))}
      </ul>
      {capped > 0 ? (
        <div className="callflow-callees-more">… and {capped.toLocaleString('en')} lighter ones</div>
      ) : null}
      {shownAgain.length ? (
        <>
          <div className="callflow-menu-title callflow-callees-again">Shown again</div>
          {shownAgain.map(name => (
            <button key={name} className="callflow-menu-item" data-hide-again={name} onClick={() => onHideAgain(name)}>
              Hide again: <code>{name}</code>
            </button>
          ))}
        </>
      ) : null}
    </div>
  );
}
