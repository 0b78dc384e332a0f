import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLFLOW_HOST_TO_VIEW_TYPES, type CallflowHostToView } from '../../src/shared/callflow-protocol';
import { getViewState, isMessageOf, postMessage, setViewState } from './vscode-api';

describe('vscode-api', () => {
  test("recognises a view's protocol messages and ignores others", () => {
    const of = (d: unknown) => isMessageOf<CallflowHostToView>(CALLFLOW_HOST_TO_VIEW_TYPES, d);
    assert.ok(of({ type: 'graph', data: {} }));
    assert.ok(of({ type: 'error', message: 'x' }));
    assert.ok(!of({ type: 'ready' }), 'a view → host message');
    assert.ok(!of({ type: 'timeline/init' }), "another view's message");
    assert.ok(!of({ type: 'test/query', id: 1, selector: 'x' }), "the test agent's message");
    assert.ok(!of({ type: 'toString' }), 'no inherited key counts');
    assert.ok(!of(null));
    assert.ok(!of('callflow'));
    assert.ok(!of({ vscodeScheduleAsyncWork: 1 }));
  });

  test('outside VS Code, state is kept per view in memory and posting does not throw', () => {
    assert.equal(getViewState('callflow'), undefined);
    setViewState('callflow', { n: 1 });
    assert.deepEqual(getViewState('callflow'), { n: 1 });
    const info = console.info;
    console.info = () => {};
    try {
      postMessage({ type: 'ready', view: 'callflow' });
    } finally {
      console.info = info;
    }
  });
});
