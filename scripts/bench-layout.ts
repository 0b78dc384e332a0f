/**
 * The CallFlow Sankey layout on synthetic call DAGs (tree + level-spanning extra calls): median
 * time per layout, with the size of the layered graph and the crossings left, so a slowdown or a
 * worse ordering shows. Run: `npm run bench -- layout`.
 */
import { layoutCallflow } from '../src/analysis/layout/callflow-layout';
import { syntheticFlowDag } from '../src/analysis/layout/synthetic-dag';
import { formatTiming, timeRepeated } from './bench-timing';

export async function benchLayout(sizes: readonly number[] = [100, 500, 2000, 5000]): Promise<void> {
  console.log('\nCallFlow Sankey layout on synthetic call DAGs (median of repeats after a warm-up, one process):');
  for (const nodes of sizes) {
    const graph = syntheticFlowDag(nodes, 42);
    const options = { width: 1600, height: Math.max(800, nodes * 4), histogramHeight: 12 };
    let last = layoutCallflow(graph, options);
    const t = await timeRepeated(() => (last = layoutCallflow(graph, options)), {
      repeats: nodes <= 500 ? 15 : 5,
      warmup: 0,
    });
    console.log(
      `  ${String(nodes).padStart(5)} nodes, ${String(graph.edges.length).padStart(5)} edges, ${String(last.levels).padStart(3)} levels, ` +
        `${String(last.dummyCount).padStart(6)} dummies: ${formatTiming(t, { digits: 1, width: 11 })}  (${last.crossings} crossings left)`,
    );
  }
}
