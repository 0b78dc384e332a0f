/**
 * The CallFlow Sankey layout on synthetic call DAGs (tree + level-spanning extra calls): median
 * time per layout, with the size of the layered graph and the crossings left, so a slowdown or a
 * worse ordering shows. Run: `npm run bench -- layout`.
 */
import { layoutCallflow } from '../src/analysis/layout/callflow-layout';
import { syntheticFlowDag } from '../src/analysis/layout/synthetic-dag';

export function benchLayout(sizes: readonly number[] = [100, 500, 2000, 5000]): void {
  console.log('\nCallFlow Sankey layout on synthetic call DAGs (median of repeats, one process):');
  for (const nodes of sizes) {
    const graph = syntheticFlowDag(nodes, 42);
    const options = { width: 1600, height: Math.max(800, nodes * 4), histogramHeight: 12 };
    layoutCallflow(graph, options); // warm-up
    const repeats = nodes <= 500 ? 15 : 5;
    const times: number[] = [];
    let last = layoutCallflow(graph, options);
    for (let k = 0; k < repeats; k++) {
      const t = performance.now();
      last = layoutCallflow(graph, options);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `  ${String(nodes).padStart(5)} nodes, ${String(graph.edges.length).padStart(5)} edges, ${String(last.levels).padStart(3)} levels, ` +
        `${String(last.dummyCount).padStart(6)} dummies: ${median.toFixed(1).padStart(8)} ms  (${last.crossings} crossings left)`,
    );
  }
}
