import assert from 'node:assert/strict';
import { it } from 'node:test';
import { markdownText } from './markdown-text';

it('escapes every Markdown construct a hostile name could carry', () => {
  const hostile = '**bold** [open](command:workbench.action.files.delete) <img src=x> `code` # head\n- item | _x_';
  const escaped = markdownText(hostile);
  // No punctuation stays unescaped and no line break survives: nothing can start a construct.
  assert.doesNotMatch(escaped.replace(/\\[!-/:-@[-`{-~]/g, ''), /[!-/:-@[-`{-~]/);
  assert.doesNotMatch(escaped, /\n/);
  // Removing the escapes gives the name back (newlines read as spaces).
  assert.equal(escaped.replace(/\\(.)/g, '$1'), hostile.replace('\n', ' '));
});

it('leaves plain identifiers alone', () => {
  assert.equal(markdownText('jacobi_sweep'), 'jacobi\\_sweep');
  assert.equal(markdownText('main'), 'main');
});
