import assert from 'node:assert/strict';
import type { Profile } from '../../model/profile';
import type { SuperGraph } from '../super-graph';

export const near = (a: number, b: number, msg?: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)), `${msg ?? ''} ${a} ≠ ${b}`);
const outgoing = (g: SuperGraph, id: string) => g.edges.filter(e => e.source === id).reduce((s, e) => s + e.value, 0);

/** Kahn's algorithm: true when the edges form no cycle. */
export function isAcyclic(g: SuperGraph): boolean {
  const indeg = new Int32Array(g.nodes.length);
  for (const e of g.edges) indeg[e.to]!++;
  const queue = [...indeg.keys()].filter(s => indeg[s] === 0);
  let seen = 0;
  while (queue.length) {
    const s = queue.pop()!;
    seen++;
    for (const e of g.edges) if (e.from === s && --indeg[e.to]! === 0) queue.push(e.to);
  }
  return seen === g.nodes.length;
}

/**
 * The invariants every super graph must hold (AT-15 and flow conservation): inclusive = Σ entry
 * inclusive = exclusive + outgoing flows + what the filter folded into it; Σ root inclusive (shown
 * or filtered) = the total. With the profile: exclusive = Σ member exclusive too.
 */
export function assertInvariants(g: SuperGraph, profile?: Profile): void {
  assert.ok(isAcyclic(g), 'acyclic');
  let rootInclusive = 0;
  for (const n of g.nodes) {
    near(
      n.inclusive,
      n.entries.reduce((s, e) => s + e.inclusive, 0),
      `${n.id}: inclusive = Σ entry inclusive`,
    );
    near(
      n.inclusive,
      n.inclusiveByContext.reduce((s, v) => s + v, 0),
      `${n.id}: Σ per context`,
    );
    near(
      n.exclusive,
      n.exclusiveByContext.reduce((s, v) => s + v, 0),
      `${n.id}: Σ per context (exclusive)`,
    );
    // The gap below the outgoing edges is the exclusive value plus the time of filtered callees.
    near(n.inclusive - outgoing(g, n.id), n.exclusive + n.filteredInclusive, `${n.id}: gap`);
    near(
      n.filteredInclusive,
      n.filteredCallees.reduce((s, c) => s + c.inclusive, 0),
      `${n.id}: Σ filtered callees`,
    );
    if (profile) {
      const exc = profile.exclusive(g.metric);
      const C = profile.contextCount;
      let members = 0;
      for (const i of n.members) for (const c of g.contexts) members += exc[i * C + c]!;
      near(n.exclusive, members, `${n.id}: exclusive = Σ member exclusive`);
    }
    // What does not flow in enters at a call-tree root (a node can be both: several roots in one module).
    const into = [...g.edges, ...g.droppedEdges].filter(e => e.target === n.id).reduce((s, e) => s + e.value, 0);
    assert.ok(into <= n.inclusive * (1 + 1e-9) + 1e-12, `${n.id}: inflow ≤ inclusive`);
    rootInclusive += n.inclusive - into;
  }
  near(rootInclusive + g.filter.removedRootInclusive, g.total, 'Σ root inclusive (shown or filtered) = total');
  for (const e of g.edges)
    near(
      e.value,
      e.valueByContext.reduce((s, v) => s + v, 0),
      `${e.source}→${e.target} per context`,
    );
}
