import { createServer, type Server, type Socket } from 'node:net';

export interface ByteSocketEvents {
  /** A client connected (a ROSS instrumentation hook, a replay). */
  connection?(id: number, remote: string): void;
  /** Bytes from a connection. Throwing (bad records) drops the connection; `dropped` says why. */
  chunk(id: number, bytes: Uint8Array): void;
  /** The client closed its end. */
  end?(id: number): void;
  /** The connection was dropped: the consumer refused its bytes, a second client, or a socket error. */
  dropped?(id: number, reason: string): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * A localhost TCP listener for in-situ streaming (seed digest §6.1): a simulator-side agent
 * connects and writes the same byte stream ROSS writes to its stats file. One client at a time —
 * records from two writers would interleave — so a second one is dropped. When the consumer throws
 * on a chunk (garbage on the wire), that connection is destroyed and reported; the listener stays
 * up for the next client. Only loopback addresses can be bound.
 */
export class ByteSocketServer {
  private nextId = 1;
  private active: { id: number; socket: Socket } | null = null;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {}

  static listen(events: ByteSocketEvents, port = 0, host = '127.0.0.1'): Promise<ByteSocketServer> {
    if (!LOOPBACK.has(host))
      return Promise.reject(new Error(`the PDES monitor listens on localhost only, not on ${host}`));
    let self: ByteSocketServer | null = null;
    const server = createServer(socket => self!.accept(socket, events));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const address = server.address();
        const bound = typeof address === 'object' && address ? address.port : port;
        self = new ByteSocketServer(server, host, bound);
        resolve(self);
      });
    });
  }

  /** Stops listening and drops the current client. */
  close(): Promise<void> {
    this.active?.socket.destroy();
    this.active = null;
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  private accept(socket: Socket, events: ByteSocketEvents): void {
    const id = this.nextId++;
    const remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    if (this.active) {
      events.dropped?.(id, `a second client (${remote}) while connection ${this.active.id} is streaming`);
      socket.destroy();
      return;
    }
    this.active = { id, socket };
    events.connection?.(id, remote);
    let dropped = false;
    const release = () => {
      if (this.active?.id === id) this.active = null;
    };
    socket.on('data', (data: Buffer) => {
      if (dropped) return;
      try {
        events.chunk(id, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch (e) {
        dropped = true;
        release();
        socket.destroy();
        events.dropped?.(id, e instanceof Error ? e.message : String(e));
      }
    });
    socket.on('end', () => {
      release();
      if (!dropped) events.end?.(id);
    });
    socket.on('close', release);
    socket.on('error', e => {
      if (dropped) return;
      dropped = true;
      release();
      events.dropped?.(id, e.message);
    });
  }
}
