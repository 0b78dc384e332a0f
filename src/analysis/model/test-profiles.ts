import { NodeKind } from './call-tree';
import type { MetricDescriptor } from './metric';
import type { Profile } from './profile';
import { ProfileBuilder } from './profile-builder';

/** The plain exclusive time metric (seconds, summed) most test profiles are built with; a fresh object each call, since the builder keeps it. */
export function exclusiveTime(): MetricDescriptor {
  return { name: 'time', label: 'time', sourceKeys: [], unit: 's', kind: 'exclusive', aggregation: 'sum' };
}

/**
 * Builds a small profile from an indented text outline, for tests:
 *
 *   main @heat            ← name, then optional @module and file:line
 *     solve @libsolve a.c:10 = 1 2 3   ← exclusive values per context after "="
 */
export function profileFromOutline(outline: string, contexts = 1): Profile {
  const b = new ProfileBuilder('test-outline', '<outline>');
  const ctx = Array.from({ length: contexts }, (_, r) => b.context({ rank: contexts > 1 ? r : -1 }));
  const m = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['time'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const stack: { indent: number; id: number }[] = [];
  for (const raw of outline.split('\n')) {
    if (!raw.trim()) continue;
    const indent = raw.length - raw.trimStart().length;
    const [decl, values = ''] = raw.trim().split('=');
    const words = decl!.trim().split(/\s+/);
    const name = words[0]!;
    const mod = words.find(w => w.startsWith('@'))?.slice(1) ?? null;
    const loc = words.find(w => /:\d+$/.test(w) && !w.startsWith('@'));
    const kind = name.includes(':') ? NodeKind.Statement : NodeKind.Function;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1]!.id : -1;
    const id = b.tree.add(parent, name, kind, {
      module: mod,
      file: loc ? loc.slice(0, loc.lastIndexOf(':')) : null,
      line: loc ? Number(loc.slice(loc.lastIndexOf(':') + 1)) : null,
    });
    stack.push({ indent, id });
    values
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .forEach((v, c) => b.addExclusive(m, id, ctx[c]!, Number(v)));
  }
  return b.build(m);
}

/** Σ exclusive of each function's nodes, its statements and loops included (names as keys). */
export function exclusiveByFunction(p: Profile, metric = 0): Map<string, number> {
  const out = new Map<string, number>();
  const e = p.exclusiveTotals(metric);
  for (let i = 0; i < p.tree.size; i++) {
    let f = i;
    while (f >= 0 && p.tree.kind(f) !== NodeKind.Function) f = p.tree.parent(f);
    if (f < 0) continue;
    out.set(p.tree.name(f), (out.get(p.tree.name(f)) ?? 0) + e[i]!);
  }
  return out;
}
