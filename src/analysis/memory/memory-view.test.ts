import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributeHistograms } from './attribute-histograms';
import { depthScores } from './depth-scores';
import { hideSelected, select, type SampleScope } from './index-set';
import { prepareMemoryAnalysis, topologyAttribution } from './memory-analysis';
import { MemoryView } from './memory-view';
import { lineCosts, topOffenders, variableCosts } from './source-costs';
import { latencyOutranksCountScenario } from './testing/synthetic-memory';

const { samples, machine } = latencyOutranksCountScenario({ n: 300 });
const a = prepareMemoryAnalysis(samples, machine);
const fx = samples.variable.names.indexOf('fx');
const fxSamples = Int32Array.from([...samples.variable.ids.keys()].filter(i => samples.variable.ids[i] === fx));

/** The same figures computed directly, without the view's cache. */
function direct(scope: SampleScope) {
  const { total, selected } = topologyAttribution(a, scope);
  const focus = scope.selected ?? scope.visible;
  return {
    total,
    selected,
    depths: depthScores(a, selected ?? total),
    top: topOffenders(a, scope),
    lines: lineCosts(a, focus),
    variables: variableCosts(a, focus),
    histograms: attributeHistograms(a, scope),
  };
}

describe('memory view', () => {
  it('shows what the analyses compute directly, for every kind of scope', () => {
    const view = new MemoryView(a);
    const scopes: SampleScope[] = [{ visible: null, selected: null }];
    scopes.push(select(scopes[0]!, fxSamples, 'new'));
    scopes.push(hideSelected(scopes[1]!, samples.count));
    scopes.push(select(scopes[2]!, Int32Array.of(0, 1, 2, 5000), 'new'));
    for (const scope of scopes) {
      const { scope: _, ...got } = view.update(scope);
      assert.deepEqual(got, direct(scope));
    }
  });

  it('reuses the visible aggregates while only the selection changes', () => {
    const view = new MemoryView(a);
    const all = view.update({ visible: null, selected: null });
    const sel = view.update(select({ visible: null, selected: null }, fxSamples, 'new'));
    assert.equal(sel.total, all.total);
    assert.equal(sel.histograms[0]!.visible, all.histograms[0]!.visible);
    assert.notEqual(sel.lines, all.lines);
    const hidden = view.update(
      hideSelected(select({ visible: null, selected: null }, fxSamples, 'new'), samples.count),
    );
    assert.notEqual(hidden.total, all.total);
    assert.equal(
      hidden.top.variables.some(v => v.name === 'fx'),
      false,
    );
  });

  it('shows code and data without a topology', () => {
    const view = new MemoryView(prepareMemoryAnalysis(samples, null));
    const m = view.update({ visible: null, selected: fxSamples });
    assert.equal(m.total, null);
    assert.deepEqual(m.depths, []);
    assert.deepEqual(
      m.top.variables.map(v => v.name),
      ['fx'],
    );
  });
});
