import type { JsonHandler } from './json-tokenizer';

/**
 * Replays a value `JSON.parse` made as the events {@link JsonHandler} gets from the streaming
 * tokenizer, so one handler reads either source. For small files a cold process parses faster
 * natively than through the tokenizer's JavaScript, which runs interpreted on a first read.
 *
 * What the two sources cannot agree on is the caller's to rule out: JSON.parse keeps the last of
 * duplicate keys (the stream reports each), lists an object's integer-like keys first, and its
 * UTF-8 decoding of invalid bytes may differ from the tokenizer's. A key for which the handler
 * returns `true` has its value skipped, as the tokenizer does.
 */
export function replayJsonValue(value: unknown, handler: JsonHandler): void {
  if (value === null || typeof value === 'boolean') handler.literal(value);
  else if (typeof value === 'number') handler.number(value);
  else if (typeof value === 'string') handler.string(value);
  else if (Array.isArray(value)) {
    handler.startArray();
    for (let i = 0; i < value.length; i++) replayJsonValue(value[i], handler);
    handler.endArray();
  } else {
    const object = value as Record<string, unknown>;
    handler.startObject();
    for (const key of Object.keys(object)) if (handler.key(key) !== true) replayJsonValue(object[key], handler);
    handler.endObject();
  }
}
