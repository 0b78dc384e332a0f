import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { PDES_ANALYSIS_DEFAULTS } from '../../analysis/pdes/analysis-options';
import { EMPTY_PDES_PANEL_STATE, PDES_SETTING_KEYS, type PdesPanelState } from '../../shared/pdes-protocol';
import { nextState, readState, withOptions } from './pdes-panel-state';

const base: PdesPanelState = {
  options: { clusters: 4 },
  selection: { clusters: [1], entities: [3, 4], valueFilters: [{ metric: 'pq_size', min: 2 }] },
  keepUnselected: false,
  matrixSegment: 2,
  networkSegment: 1,
  networkDrill: { expand: ['n3'], collapse: [] },
};

describe('PDES panel state', () => {
  it('a new level or time axis drops the whole selection (entity indices mean other entities)', () => {
    const s = withOptions(base, { level: 'pe' });
    assert.deepEqual(s.selection, {});
    assert.equal(s.matrixSegment, null);
    assert.deepEqual(s.options, { clusters: 4, level: 'pe' });
  });

  it('a new clustering drops only the cluster filter; a display option keeps everything', () => {
    const s = withOptions(base, { distance: 'dtw' });
    assert.deepEqual(s.selection, { entities: [3, 4], valueFilters: [{ metric: 'pq_size', min: 2 }] });
    assert.equal(s.matrixSegment, 2);
    const r = withOptions(base, { ringEncoding: 'heatmap' });
    assert.deepEqual(r.selection, base.selection);
  });

  it('a brushed range or edited segments choose the matrix anew; null returns to the settings value', () => {
    assert.equal(withOptions(base, { range: { from: 2, to: 9 } }).matrixSegment, null);
    assert.equal(withOptions(base, { changePoints: [4] }).matrixSegment, null);
    assert.equal(withOptions(base, { changePoints: [4] }).networkSegment, null);
    assert.equal(withOptions(base, { ringEncoding: 'bars' }).networkSegment, 1);
    const edited = withOptions(base, { changePoints: [4] });
    assert.equal(withOptions(edited, { changePoints: null }).options.changePoints, null);
  });

  it('applies the view’s state messages', () => {
    assert.deepEqual(nextState(base, { type: 'pdes/resetOptions' }), {
      ...base,
      options: {},
      selection: {},
      matrixSegment: null,
    });
    assert.equal(nextState(base, { type: 'pdes/keepUnselected', keep: true }).keepUnselected, true);
    assert.equal(nextState(base, { type: 'pdes/matrixSegment', segment: 0 }).matrixSegment, 0);
    assert.deepEqual(nextState(base, { type: 'pdes/selection', selection: {} }).selection, {});
    assert.equal(nextState(base, { type: 'pdes/networkSegment', segment: null }).networkSegment, null);
    const expanded = nextState(base, { type: 'pdes/topology', event: { type: 'topology/expand', mark: 'n5' } });
    assert.deepEqual(expanded.networkDrill, { expand: ['n3', 'n5'], collapse: [] });
    const folded = nextState(expanded, { type: 'pdes/topology', event: { type: 'topology/collapse', mark: 'n3' } });
    assert.deepEqual(folded.networkDrill, { expand: ['n5'], collapse: ['n3'] });
  });

  it('reads a remembered state, refusing what is not one', () => {
    assert.equal(readState(undefined), undefined);
    assert.equal(readState({ options: 3 }), undefined);
    assert.deepEqual(readState({ options: {}, selection: { clusters: [0] }, keepUnselected: 'yes' }), {
      ...EMPTY_PDES_PANEL_STATE,
      selection: { clusters: [0] },
      networkDrill: { expand: [], collapse: [] },
    });
    assert.deepEqual(readState({ options: {}, selection: {}, networkDrill: { expand: ['n1', 3] } })?.networkDrill, {
      expand: ['n1'],
      collapse: [],
    });
  });

  it('every analysis option the panel reads from the settings is declared in package.json with the seed default', () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;
    for (const key of PDES_SETTING_KEYS) {
      const declared = props[`hpcLens.pdes.${key}`];
      assert.ok(declared, `hpcLens.pdes.${key} is declared`);
      assert.deepEqual(declared.default, PDES_ANALYSIS_DEFAULTS[key], `hpcLens.pdes.${key} default`);
    }
  });
});
