import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes small OTF2 archives for the reader's tests (there are no OTF2 tools on the development
 * machines): the encoding follows the OTF2 buffer layer as the reader documents it, in either byte
 * order, with a settable chunk size so that event files span several chunks.
 */

/** An event of a test location; times are timer ticks. */
export type TestEvent =
  | { t: number; enter: number }
  | { t: number; leave: number }
  | { t: number; send: { peer: number; comm: number; tag: number; bytes: number; request?: number } }
  | { t: number; recv: { peer: number; comm: number; tag: number; bytes: number; request?: number } }
  | { t: number; irecvRequest: number }
  | { t: number; collective: { comm: number; sent: number; received: number } }
  | { t: number; metric: { id: number; values: number[] } }
  | { t: number; unknown: number };

export interface TestArchive {
  littleEndian?: boolean;
  version?: [number, number, number];
  eventChunkSize?: number;
  compression?: number;
  substrate?: number;
  resolution: number;
  offset: bigint;
  regions: { name: string; file?: string; line?: number }[];
  /** Ranks: each one a process location group with one thread location (location id = rank). */
  ranks: { events: TestEvent[]; regionMap?: number[]; commMap?: number[]; clockOffsets?: [number, number][] }[];
  /** Metric member names/units, defined as metric class 0 when present. */
  metrics?: { name: string; unit: string; type: 'double' | 'int64' | 'uint64' }[];
}

class Out {
  readonly b: number[] = [];
  constructor(readonly le: boolean) {}
  u8(v: number): this {
    this.b.push(v & 0xff);
    return this;
  }
  /** Compressed unsigned integer (-1 stands for all ones). */
  cu(v: number | bigint): this {
    let x = BigInt(v);
    if (x === 0n) return this.u8(0);
    if (x < 0n) x = BigInt.asUintN(64, x);
    if (x === 0xffffffffffffffffn) return this.u8(0xff);
    const bytes: number[] = [];
    while (x > 0n) {
      bytes.push(Number(x & 0xffn));
      x >>= 8n;
    }
    this.u8(bytes.length);
    for (const byte of this.le ? bytes : bytes.reverse()) this.u8(byte);
    return this;
  }
  full(v: number | bigint, width = 8): this {
    const x = BigInt.asUintN(width * 8, BigInt(v));
    const bytes: number[] = [];
    for (let k = 0; k < width; k++) bytes.push(Number((x >> BigInt(8 * k)) & 0xffn));
    for (const byte of this.le ? bytes : bytes.reverse()) this.u8(byte);
    return this;
  }
  str(s: string): this {
    for (const byte of Buffer.from(s, 'utf8')) this.u8(byte);
    return this.u8(0);
  }
  /** A record with a length byte. */
  rec(type: number, body: (o: Out) => void): this {
    const inner = new Out(this.le);
    body(inner);
    this.u8(type).u8(inner.b.length);
    this.b.push(...inner.b);
    return this;
  }
  header(): this {
    return this.u8(3)
      .u8(this.le ? 0x42 : 0x23)
      .full(0)
      .full(0);
  }
}

const METRIC_TYPES = { uint64: 4, int64: 8, double: 10 } as const;

/** Writes the archive `<dir>/traces.{otf2,def}` + `traces/<rank>.{evt,def}` and returns the anchor's path. */
export function writeTestArchive(dir: string, a: TestArchive): string {
  const le = a.littleEndian ?? true;
  const eventChunk = a.eventChunkSize ?? 1 << 20;
  mkdirSync(join(dir, 'traces'), { recursive: true });
  const strings: string[] = [''];
  const s = (text: string) => {
    let i = strings.indexOf(text);
    if (i < 0) {
      i = strings.length;
      strings.push(text);
    }
    return i;
  };
  const defs = new Out(le).header();
  const body = new Out(le);
  body.rec(5, o => o.cu(a.resolution).cu(a.offset).cu(1000));
  body.rec(12, o => o.cu(0).cu(s('node0')).cu(s('node')).cu(-1));
  a.ranks.forEach((_, r) =>
    body.rec(13, o =>
      o
        .cu(r)
        .cu(s(`MPI Rank ${r}`))
        .u8(1)
        .cu(0),
    ),
  );
  a.ranks.forEach((rank, r) => body.rec(14, o => o.cu(r).cu(s('Master thread')).u8(1).cu(rank.events.length).cu(r)));
  a.regions.forEach((reg, i) =>
    body.rec(15, o =>
      o
        .cu(i)
        .cu(s(reg.name))
        .cu(s(''))
        .u8(0)
        .cu(s(reg.file ?? ''))
        .cu(reg.line ?? 0)
        .cu(reg.line ?? 0)
        .cu(s(reg.name))
        .u8(1)
        .u8(2)
        .cu(0),
    ),
  );
  const members = a.ranks.map((_, r) => r);
  body.rec(18, o => {
    o.cu(0).cu(s('')).u8(0).cu(members.length);
    for (const m of members) o.cu(m);
    o.u8(4).u8(4).cu(0);
  });
  body.rec(18, o => {
    o.cu(1).cu(s('world')).u8(0).cu(members.length);
    for (const m of members) o.cu(m);
    o.u8(5).u8(4).cu(0);
  });
  body.rec(22, o => o.cu(0).cu(s('MPI_COMM_WORLD')).cu(1).cu(-1));
  body.rec(7, o => o.u8(1).u8(2).u8(3)); // a ParadigmProperty: a definition the reader skips
  (a.metrics ?? []).forEach((m, i) =>
    body.rec(19, o => o.cu(i).cu(s(m.name)).cu(s('')).u8(0).u8(0).u8(METRIC_TYPES[m.type]).u8(0).cu(0).cu(s(m.unit))),
  );
  if (a.metrics?.length)
    body.rec(20, o => {
      o.cu(0).u8(a.metrics!.length);
      a.metrics!.forEach((_, i) => o.cu(i));
      o.u8(0).u8(0);
    });
  // Strings first, as Score-P writes them.
  strings.forEach((text, i) => defs.rec(10, o => o.cu(i).str(text)));
  defs.b.push(...body.b);
  defs.u8(2);
  writeFileSync(join(dir, 'traces.def'), Buffer.from(defs.b));

  a.ranks.forEach((rank, r) => {
    const local = new Out(le).header();
    if (rank.commMap)
      local.rec(5, o => {
        o.u8(6).cu(rank.commMap!.length).u8(0);
        for (const g of rank.commMap!) o.cu(g);
      });
    if (rank.regionMap)
      local.rec(5, o => {
        o.u8(3).cu(rank.regionMap!.length).u8(1);
        rank.regionMap!.forEach((g, l) => o.cu(l).cu(g));
      });
    for (const [t, off] of rank.clockOffsets ?? [])
      local.rec(6, o =>
        o
          .full(a.offset + BigInt(t))
          .cu(BigInt(off))
          .full(0),
      );
    local.u8(2);
    writeFileSync(join(dir, 'traces', `${r}.def`), Buffer.from(local.b));

    const chunks: number[][] = [];
    let cur = new Out(le).header();
    for (const e of rank.events) {
      const rec = new Out(le).u8(5).full(a.offset + BigInt(e.t));
      if ('enter' in e) rec.u8(12).cu(e.enter);
      else if ('leave' in e) rec.u8(13).cu(e.leave);
      else if ('send' in e)
        rec.rec(e.send.request === undefined ? 14 : 15, o => {
          o.cu(e.send.peer).cu(e.send.comm).cu(e.send.tag).cu(e.send.bytes);
          if (e.send.request !== undefined) o.cu(e.send.request);
        });
      else if ('recv' in e)
        rec.rec(e.recv.request === undefined ? 18 : 19, o => {
          o.cu(e.recv.peer).cu(e.recv.comm).cu(e.recv.tag).cu(e.recv.bytes);
          if (e.recv.request !== undefined) o.cu(e.recv.request);
        });
      else if ('irecvRequest' in e) rec.u8(17).cu(e.irecvRequest);
      else if ('collective' in e) {
        rec
          .rec(22, () => undefined)
          .u8(5)
          .full(a.offset + BigInt(e.t));
        rec.rec(23, o => o.u8(1).cu(e.collective.comm).cu(0).cu(e.collective.sent).cu(e.collective.received));
      } else if ('metric' in e) {
        rec.rec(31, o => {
          o.cu(e.metric.id).u8(e.metric.values.length);
          for (const m of a.metrics!) o.u8(METRIC_TYPES[m.type]);
          e.metric.values.forEach((v, i) => {
            if (a.metrics![i]!.type !== 'double') return void o.cu(BigInt(v));
            const dv = new DataView(new ArrayBuffer(8));
            dv.setFloat64(0, v);
            o.cu(dv.getBigUint64(0));
          });
        });
      } else rec.rec(e.unknown, o => o.u8(7).u8(7));
      if (cur.b.length + rec.b.length + 1 > eventChunk) {
        cur.u8(0);
        chunks.push(cur.b.concat(new Array<number>(eventChunk - cur.b.length).fill(0)));
        cur = new Out(le).header();
      }
      cur.b.push(...rec.b);
    }
    cur.u8(2);
    chunks.push(cur.b);
    writeFileSync(join(dir, 'traces', `${r}.evt`), Buffer.concat(chunks.map(c => Buffer.from(c))));
  });

  const anchor = new Out(le)
    .u8(3)
    .u8(le ? 0x42 : 0x23)
    .str('OTF2')
    .u8(3)
    .u8(2);
  for (const v of a.version ?? [3, 0, 0]) anchor.u8(v);
  anchor
    .full(eventChunk)
    .full(1 << 18)
    .u8(a.substrate ?? 1)
    .u8(a.compression ?? 1)
    .full(a.ranks.length)
    .full(strings.length + 8);
  anchor
    .str('')
    .str('hpc-lens test')
    .str('')
    .full(1, 4)
    .str('OTF2::TEST')
    .str('yes')
    .full(42)
    .full(0, 4)
    .full(0, 4)
    .u8(2);
  const anchorPath = join(dir, 'traces.otf2');
  writeFileSync(anchorPath, Buffer.from(anchor.b));
  return anchorPath;
}
