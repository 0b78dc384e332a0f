import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HandlerActivity } from '../../analysis/pdes/handlers';
import type { ChangePointActivity } from '../../analysis/pdes/stream/monitor-run';
import { english } from '../l10n-text';
import { showEditorNote } from './pdes-monitor-show';

const row = (lpType: string, handler: HandlerActivity['handler']): HandlerActivity => ({
  lpType,
  lps: 4,
  eventsProcessed: 100,
  processedSource: 'event trace',
  eventsRolledBack: 10,
  rolledBackSource: 'KP samples',
  handler,
  forwardTitle: '',
  reverseTitle: null,
  wholeRun: false,
});
const activity = (rows: HandlerActivity[]): ChangePointActivity => ({
  rows,
  selected: 2,
  total: 8,
  level: 'kp',
  changePoint: 1,
  from: 3,
  to: 9,
  entities: [1, 2],
  labels: ['PE 0 · KP 1', 'PE 0 · KP 2'],
});
const terminal = {
  file: '**/dragonfly-dally.C',
  forward: 'terminal_dally_event',
  reverse: 'terminal_dally_rc_event_handler',
};

describe('what Show says about the handler CodeLenses', () => {
  it('names the handlers that got a CodeLens, of the LP types whose source was found', () => {
    const run = { lpTypes: [{ name: 'terminal', lps: 8, handler: terminal, found: true }] };
    const a = activity([row('terminal', terminal), row('nw-lp', null)]);
    assert.equal(
      showEditorNote(a, run, 'x-rt.bin (live)', english),
      'CodeLens on terminal_dally_event, terminal_dally_rc_event_handler in x-rt.bin (live)',
    );
  });

  it('says why there are none: no LPs known, no handlers configured, or their source not found', () => {
    const run = { lpTypes: [{ name: 'terminal', lps: 8, handler: terminal, found: false }] };
    assert.match(showEditorNote(activity([]), run, 'x', english), /nothing says which LPs/);
    assert.match(showEditorNote(undefined, run, 'x', english), /nothing says which LPs/);
    assert.match(
      showEditorNote(activity([row('nw-lp', null)]), run, 'x', english),
      /set the handlers of nw-lp in hpcLens\.pdes\.handlers/,
    );
    assert.match(
      showEditorNote(activity([row('terminal', terminal)]), run, 'x', english),
      /\*\*\/dragonfly-dally\.C was not found under the workspace folders or hpcLens\.sourceSearchRoots/,
    );
  });
});
