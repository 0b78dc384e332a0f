// Grouping a trace's data-movement table by issuing site (src/analysis/stats/data-movement-sites.ts)
// on 10^6 copies, against a plain pass over the same columns (dataMovementTotals) as the yardstick.
// Run: `npm run bench -- data-movement`.
import { CallTreeBuilder, NodeKind, type CallTree } from '../src/analysis/model/call-tree';
import { dataMovementTotals, type DataMovementColumns } from '../src/analysis/model/trace';
import { dataMovementSites } from '../src/analysis/stats/data-movement-sites';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { formatTiming, timeRepeated } from './bench-timing';

/**
 * A Kineto-like tree: `lines` source frames (file:line) under a few callers, each with a
 * cudaMemcpyAsync and a copy node below; `copies` rows spread over them, a tenth without a source node.
 */
function synthetic(copies: number, lines: number): { tree: CallTree; dm: DataMovementColumns } {
  const b = new CallTreeBuilder();
  const roots = Array.from({ length: 8 }, (_, k) =>
    b.add(-1, `train_step_${k}`, NodeKind.Function, { file: 'train.py', line: 10 + k }),
  );
  const site: number[] = [],
    copy: number[] = [];
  for (let l = 0; l < lines; l++) {
    const s = b.add(roots[l % roots.length]!, `op_${l % 200}`, NodeKind.Function, {
      file: `model_${l % 40}.py`,
      line: 1 + Math.floor(l / 40),
    });
    const api = b.add(s, 'cudaMemcpyAsync', NodeKind.Function);
    site.push(s);
    copy.push(
      b.add(api, l % 2 ? 'Memcpy DtoH (Device -> Pageable)' : 'Memcpy HtoD (Pageable -> Device)', NodeKind.Function),
    );
  }
  const tree = b.finish();
  const rnd = seededRandom(0xd17a);
  const dm: DataMovementColumns = {
    kind: new Uint8Array(copies),
    bytes: new Float64Array(copies),
    srcDevice: new Int32Array(copies),
    dstDevice: new Int32Array(copies),
    start: new Float64Array(copies),
    duration: new Float64Array(copies),
    track: new Int32Array(copies),
    event: new Int32Array(copies),
    node: new Int32Array(copies),
    sourceNode: new Int32Array(copies),
  };
  for (let i = 0; i < copies; i++) {
    const l = Math.floor(rnd() * lines);
    dm.kind[i] = l % 2;
    dm.bytes[i] = 4096 * (1 + Math.floor(rnd() * 256));
    dm.srcDevice[i] = l % 2 ? 0 : -1;
    dm.dstDevice[i] = l % 2 ? -1 : 0;
    dm.start[i] = i * 1000;
    dm.duration[i] = 500 + Math.floor(rnd() * 5000);
    dm.node[i] = copy[l]!;
    dm.sourceNode[i] = i % 10 === 0 ? -1 : site[l]!;
  }
  return { tree, dm };
}

export async function benchDataMovement(copies = 1_000_000, lines = 2000): Promise<void> {
  const { tree, dm } = synthetic(copies, lines);
  const sites = await timeRepeated(() => dataMovementSites(dm, tree));
  const plain = await timeRepeated(() => dataMovementTotals(dm));
  console.log(
    `\nData movement by issuing site: ${copies.toLocaleString('en')} copies from ${lines} lines: median ${formatTiming(sites, { digits: 1 })} ` +
      `(${((sites.wallMs * 1e6) / copies).toFixed(0)} ns a copy; ${(sites.wallMs / plain.wallMs).toFixed(2)}× a plain totals pass, ${formatTiming(plain, { digits: 1 })})`,
  );
}
