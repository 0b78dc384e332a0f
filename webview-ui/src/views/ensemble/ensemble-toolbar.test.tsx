/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { EnsembleRequest, EnsembleViewState } from '../../../../src/shared/ensemble-protocol';
import { EnsembleToolbar } from './ensemble-toolbar';
import { ensembleGraphFixture } from './testing/graph-fixture';
import { hostElements } from './testing/element-tree';
import { only, textOf, type Element } from './testing/element-text';

const { data, state } = ensembleGraphFixture({ runs: 8 });

/** The toolbar for `s`, and the requests its controls sent. */
function toolbar(s: EnsembleViewState = state, d = data) {
  const sent: EnsembleRequest[] = [];
  const tree = EnsembleToolbar({ data: d, state: s, onRequest: r => sent.push(r) });
  return { tree, sent };
}
const byLabel = (label: string) => (e: Element) => e.props['aria-label'] === label;
const choice = (group: string, value: string) => (tree: ReturnType<typeof toolbar>['tree']) => {
  const g = only(tree, byLabel(group), `group ${group}`);
  return only(g, e => e.type === 'button' && e.props['data-choice'] === value, `${group} ${value}`);
};
const change = (el: Element, value: string | boolean) =>
  (el.props.onChange as (e: unknown) => void)({ target: typeof value === 'boolean' ? { checked: value } : { value } });
const click = (el: Element) => (el.props.onClick as () => void)();

describe('EnsembleToolbar', () => {
  test('the mode buttons send ensemble/mode; the current mode sends nothing', () => {
    const t = toolbar();
    click(choice('Mode', 'target')(t.tree));
    click(choice('Mode', 'diff')(t.tree));
    click(choice('Mode', 'summary')(t.tree));
    assert.deepEqual(t.sent, [
      { type: 'ensemble/mode', mode: 'target' },
      { type: 'ensemble/mode', mode: 'diff' },
    ]);
  });

  test('target mode: the dropdown lists every run with its runtime and sends ensemble/target', () => {
    const t = toolbar({ ...state, mode: 'target', target: 2 });
    const select = only(t.tree, byLabel('Target run'), 'target select');
    assert.equal(select.props.value, 2);
    const options = hostElements(select).filter(e => e.type === 'option');
    assert.equal(options.length, data.runs.length);
    assert.match(textOf(options[3]), new RegExp(`^${data.runs[3]!.name} · \\d`));
    change(select, '5');
    assert.deepEqual(t.sent, [{ type: 'ensemble/target', run: 5 }]);
    assert.equal(
      hostElements(toolbar().tree).filter(byLabel('Target run')).length,
      0,
      'no target list outside target mode',
    );
  });

  test('diff mode: baseline, compare and swap send ensemble/diff, never a pair of one run', () => {
    const t = toolbar({ ...state, mode: 'diff', diff: { baseline: 1, compare: 4 } });
    change(only(t.tree, byLabel('Baseline run'), 'baseline'), '2');
    change(only(t.tree, byLabel('Compare run'), 'compare'), '6');
    click(only(t.tree, byLabel('Swap baseline and compare'), 'swap'));
    // Picking the compare run as baseline moves compare to another run.
    change(only(t.tree, byLabel('Baseline run'), 'baseline'), '4');
    assert.deepEqual(t.sent, [
      { type: 'ensemble/diff', baseline: 2, compare: 4 },
      { type: 'ensemble/diff', baseline: 1, compare: 6 },
      { type: 'ensemble/diff', baseline: 4, compare: 1 },
      { type: 'ensemble/diff', baseline: 4, compare: 0 },
    ]);
    const none = toolbar({ ...state, mode: 'diff', diff: null });
    assert.equal(only(none.tree, byLabel('Swap baseline and compare'), 'swap').props.disabled, true);
    change(only(none.tree, byLabel('Compare run'), 'compare'), '0');
    assert.deepEqual(none.sent, [{ type: 'ensemble/diff', baseline: 1, compare: 0 }]);
  });

  test('a single run cannot be diffed', () => {
    const one = ensembleGraphFixture({ runs: 1 });
    assert.equal(choice('Mode', 'diff')(toolbar(one.state, one.data).tree).props.disabled, true);
  });

  test('gradient side, border side, bins, text guides and ordering send ensemble/options', () => {
    const t = toolbar();
    click(choice('Gradient', 'exclusive')(t.tree));
    click(choice('Border', 'inclusive')(t.tree));
    const bins = only(t.tree, byLabel('Histogram bins'), 'bins');
    assert.deepEqual(
      hostElements(bins)
        .filter(e => e.type === 'option')
        .map(e => e.props.value),
      ['5', '10', '20', '40', 'auto'],
    );
    change(bins, '40');
    change(bins, 'auto');
    change(only(t.tree, byLabel('Text guides'), 'text guides'), true);
    const order = only(t.tree, byLabel('Order runs by'), 'order');
    assert.deepEqual(
      hostElements(order)
        .filter(e => e.type === 'option')
        .map(e => e.props.value),
      ['', 'ranks', 'compiler'],
    );
    change(order, 'ranks');
    change(order, '');
    assert.deepEqual(
      t.sent.map(r => (r.type === 'ensemble/options' ? r.options : r)),
      [
        { gradientSide: 'exclusive' },
        { borderSide: 'inclusive' },
        { bins: 40 },
        { bins: 'auto' },
        { textGuides: true },
        { orderBy: 'ranks' },
        { orderBy: null },
      ],
    );
  });

  test('a bin count outside the choices is listed in order', () => {
    const t = toolbar({ ...state, options: { ...state.options, bins: 13 } });
    assert.deepEqual(
      hostElements(only(t.tree, byLabel('Histogram bins'), 'bins'))
        .filter(e => e.type === 'option')
        .map(e => e.props.value),
      ['5', '10', '13', '20', '40', 'auto'],
    );
  });

  test('a run subset shows its size and "All runs" resets it', () => {
    assert.equal(hostElements(toolbar().tree).filter(e => textOf(e) === 'All runs').length, 0);
    const t = toolbar({ ...state, runs: [1, 2, 3] });
    assert.match(textOf(t.tree), /3 of 8 runs/);
    click(only(t.tree, e => e.type === 'button' && textOf(e) === 'All runs', 'All runs'));
    assert.deepEqual(t.sent, [{ type: 'ensemble/runs', runs: null }]);
  });

  test('renders the metric, the run count and warnings', () => {
    const html = renderToStaticMarkup(
      <EnsembleToolbar
        data={{ ...data, warnings: ['run x.cali has no metric time'] }}
        state={state}
        onRequest={() => undefined}
      />,
    );
    assert.match(html, /role="toolbar" aria-label="Ensemble options"/);
    assert.match(html, /time<span class="callflow-muted"> \(s\)<\/span>/);
    assert.match(html, /8 runs/);
    assert.match(html, /title="run x.cali has no metric time"/);
  });
});
