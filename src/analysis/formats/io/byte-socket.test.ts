import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { ByteSocketServer } from './byte-socket';
import { until } from '../../../../test/support/until';

function client(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

describe('localhost byte socket', () => {
  it('passes a client’s bytes on, drops a client that sends garbage, and takes the next one', async () => {
    const got: string[] = [];
    const log: string[] = [];
    const server = await ByteSocketServer.listen({
      connection: id => log.push(`connected ${id}`),
      chunk: (id, bytes) => {
        const s = Buffer.from(bytes).toString();
        if (s.includes('garbage')) throw new Error('unknown record: flag 1701994851 at byte offset 5');
        got.push(`${id}:${s}`);
      },
      end: id => log.push(`end ${id}`),
      dropped: (id, reason) => log.push(`dropped ${id}: ${reason}`),
    });
    assert.ok(server.port > 0);
    const a = await client(server.port);
    a.write('hello');
    await until(() => got.length === 1, 'the first bytes');
    const closed = new Promise(r => a.on('close', r));
    a.write('garbage');
    await closed;
    assert.ok(log.includes('dropped 1: unknown record: flag 1701994851 at byte offset 5'), log.join('; '));
    const b = await client(server.port);
    b.end('again');
    await until(() => log.includes('end 2'), 'the second client');
    assert.deepEqual(got, ['1:hello', '2:again']);
    await server.close();
  });

  it('drops a second client while one is streaming', async () => {
    const log: string[] = [];
    const server = await ByteSocketServer.listen({
      chunk: () => undefined,
      dropped: (id, why) => log.push(`${id} ${why}`),
    });
    const a = await client(server.port);
    const b = await client(server.port);
    await until(() => log.length === 1, 'the refusal');
    assert.match(log[0]!, /^2 a second client .* while connection 1 is streaming$/);
    a.destroy();
    b.destroy();
    await server.close();
  });

  it('listens on loopback addresses only', async () => {
    await assert.rejects(ByteSocketServer.listen({ chunk: () => undefined }, 0, '0.0.0.0'), /localhost only/);
  });
});
