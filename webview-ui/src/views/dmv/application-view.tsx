/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * DMV's application view (thesis §7.4, view E): the calling-context tree of what ran in the window,
 * each node coloured by its class (data movement, GPU compute, runtime, CPU compute) and the nodes
 * active in the window marked; beside it, per track the busy time of each class and the bytes
 * copied, and the window's heaviest events. A node with a source line opens it on click.
 */
import type { AppNode, ApplicationView } from '../../../../src/analysis/dmv/application-view';
import { formatBytes, formatSeconds } from '../../../../src/analysis/stats/format';
import type { DmvWindow } from '../../../../src/shared/dmv-protocol';
import { categoryColour, CLASS_COLOURS, CLASS_KEYS, CLASS_LABELS } from './dmv-geometry';

/** The nodes in depth-first order with their depth (the host sends parents before children, not in DFS order). */
export function treeOrder(nodes: readonly AppNode[]): { index: number; depth: number }[] {
  const children: number[][] = nodes.map(() => []);
  const roots: number[] = [];
  nodes.forEach((n, i) => (n.parent >= 0 ? children[n.parent]!.push(i) : roots.push(i)));
  const total = (i: number) => CLASS_KEYS.reduce((s, k) => s + nodes[i]!.byClass[k], 0);
  for (const c of children) c.sort((a, b) => total(b) - total(a) || a - b);
  roots.sort((a, b) => total(b) - total(a) || a - b);
  const out: { index: number; depth: number }[] = [];
  const stack = roots.reverse().map(index => ({ index, depth: 0 }));
  while (stack.length) {
    const top = stack.pop()!;
    out.push(top);
    const c = children[top.index]!;
    for (let k = c.length - 1; k >= 0; k--) stack.push({ index: c[k]!, depth: top.depth + 1 });
  }
  return out;
}

const base = (file: string) => file.split('/').pop() ?? file;
const ns = (v: number) => formatSeconds(v * 1e-9);

export function ApplicationPane({
  app,
  window,
  onOpen,
}: {
  app: ApplicationView;
  window: DmvWindow;
  onOpen: (file: string, line: number | null, name: string) => void;
}) {
  const order = treeOrder(app.nodes);
  const maxNode = Math.max(1, ...app.nodes.map(n => CLASS_KEYS.reduce((s, k) => s + n.byClass[k], 0)));
  const len = Math.max(1, window.end - window.start);
  const maxEvent = Math.max(1, ...app.events.map(e => e.time));
  return (
    <div className="dmv-app-view" data-nodes={app.nodes.length} data-active={app.nodes.filter(n => n.active).length}>
      <div className="dmv-app-tree dmv-scroll" role="tree" aria-label="calling contexts in the window">
        {order.map(({ index, depth }) => {
          const n = app.nodes[index]!;
          const total = CLASS_KEYS.reduce((s, k) => s + n.byClass[k], 0);
          const clickable = n.file !== null;
          return (
            <div
              key={n.node}
              role="treeitem"
              aria-level={depth + 1}
              className={'dmv-app-node' + (n.active ? ' is-active' : '') + (clickable ? ' is-link' : '')}
              style={{ paddingLeft: 4 + Math.min(depth, 24) * 10 }}
              data-node={n.node}
              data-category={n.category}
              data-active={n.active ? 'true' : 'false'}
              title={`${n.name}${n.file ? ` (${n.file}:${n.line ?? '?'})` : ''}\n${CLASS_KEYS.map(k => `${CLASS_LABELS[k]}: ${ns(n.byClass[k])}`).join('\n')}${n.active ? '\nactive in the window' : ''}`}
              onClick={clickable ? () => onOpen(n.file!, n.line, n.name) : undefined}
            >
              <span className="dmv-swatch" style={{ background: categoryColour(n.category) }} />
              <span className="dmv-app-name">{n.name}</span>
              {n.file ? (
                <span className="dmv-app-loc">{`${base(n.file)}${n.line !== null ? `:${n.line}` : ''}`}</span>
              ) : null}
              <span
                className="dmv-app-bar"
                style={{ width: `${Math.max(1, (60 * total) / maxNode)}px`, background: categoryColour(n.category) }}
              />
            </div>
          );
        })}
      </div>
      <div className="dmv-app-bars">
        <div className="dmv-subtitle">Busy per track in the window</div>
        {app.tracks.map(t => (
          <div key={t.track} className="dmv-track-bar" data-track={t.track}>
            <span className="dmv-track-name" title={`${t.process} · ${t.name}`}>
              {t.name}
            </span>
            <span className="dmv-stack" title={CLASS_KEYS.map(k => `${CLASS_LABELS[k]}: ${ns(t.busy[k])}`).join('\n')}>
              {CLASS_KEYS.map(k =>
                t.busy[k] > 0 ? (
                  <span
                    key={k}
                    style={{
                      width: `${(100 * Math.min(1, t.busy[k] / len)).toFixed(2)}%`,
                      background: CLASS_COLOURS[k],
                    }}
                  />
                ) : null,
              )}
            </span>
            <span className="dmv-track-bytes">{t.bytes > 0 ? formatBytes(t.bytes) : ''}</span>
          </div>
        ))}
        <div className="dmv-subtitle">Heaviest events</div>
        {app.events.slice(0, 20).map(e => (
          <div
            key={e.row}
            className="dmv-event-bar"
            data-row={e.row}
            title={`${e.name}: ${ns(e.time)} in the window${e.bytes > 0 ? `, ${formatBytes(e.bytes)}` : ''}`}
          >
            <span className="dmv-event-name">{e.name}</span>
            <span className="dmv-stack">
              <span
                style={{ width: `${((100 * e.time) / maxEvent).toFixed(2)}%`, background: categoryColour(e.category) }}
              />
            </span>
            <span className="dmv-track-bytes">{e.bytes > 0 ? formatBytes(e.bytes) : ns(e.time)}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
