import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getViewState, isToWebview, postMessage, setViewState } from './vscode-api';

describe('vscode-api', () => {
  test('recognises protocol messages and ignores others', () => {
    assert.ok(isToWebview({ type: 'sankey', data: {} }));
    assert.ok(isToWebview({ type: 'error', message: 'x' }));
    assert.ok(!isToWebview({ type: 'ready' }));
    assert.ok(!isToWebview(null));
    assert.ok(!isToWebview('sankey'));
    assert.ok(!isToWebview({ vscodeScheduleAsyncWork: 1 }));
  });

  test('outside VS Code, state is kept per view in memory and posting does not throw', () => {
    assert.equal(getViewState('sankey'), undefined);
    setViewState('sankey', { n: 1 });
    assert.deepEqual(getViewState('sankey'), { n: 1 });
    const info = console.info;
    console.info = () => {};
    try {
      postMessage({ type: 'ready', view: 'sankey' });
    } finally {
      console.info = info;
    }
  });
});
