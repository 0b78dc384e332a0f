import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonTokenizer, type JsonHandler } from './json-tokenizer';
import { replayJsonValue } from './json-value-events';

/** Records every event; skips the value of each key in `skip`. */
function recorder(skip: ReadonlySet<string>): { handler: JsonHandler; events: string[] } {
  const events: string[] = [];
  const handler: JsonHandler = {
    startObject: () => void events.push('{'),
    endObject: () => void events.push('}'),
    startArray: () => void events.push('['),
    endArray: () => void events.push(']'),
    key: name => {
      events.push(`key ${name}`);
      return skip.has(name);
    },
    string: v => void events.push(`string ${v}`),
    number: v => void events.push(`number ${v}`),
    literal: v => void events.push(`literal ${v}`),
  };
  return { handler, events };
}

describe('replayJsonValue', () => {
  it('gives the events the tokenizer gives for the same text, skipped values included', () => {
    const text = JSON.stringify({
      a: [1, -2.5e-3, 'x\n"y"', true, false, null, [], {}],
      skipped: { deep: [1, { b: 2 }] },
      nested: { c: [[{ d: 'é😀' }]], skipped: [3] },
      e: Number('123456789012345678901234567890'),
    });
    for (const skip of [new Set<string>(), new Set(['skipped'])]) {
      const streamed = recorder(skip);
      const tokenizer = new JsonTokenizer(streamed.handler);
      tokenizer.write(Buffer.from(text));
      tokenizer.end();
      const replayed = recorder(skip);
      replayJsonValue(JSON.parse(text), replayed.handler);
      assert.deepEqual(replayed.events, streamed.events);
      assert.ok(skip.size === 0 || !replayed.events.includes('number 3'), 'a skipped value has no events');
    }
  });
});
