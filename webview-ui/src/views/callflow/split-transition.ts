/**
 * The three-phase transition of a split or un-split (pure planning; the view runs it with d3
 * transitions): links fade out, nodes move to their new places, links fade back in. A node that
 * appears (a split part) starts at the bar it came from (its base); a node that replaces several
 * (an un-split) starts where its parts were. Reduced motion skips the animation.
 */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface PlacedItem extends Box {
  id: string;
  baseId?: string;
}

export interface TransitionPhase {
  name: 'fade-out' | 'move' | 'fade-in';
  delay: number;
  duration: number;
}
export interface NodeMove {
  id: string;
  from: Box;
  to: Box;
  entering: boolean;
}

export interface TransitionPlan {
  phases: TransitionPhase[];
  moves: NodeMove[];
  total: number;
}

export const PHASE_MS = { fadeOut: 150, move: 350, fadeIn: 200 } as const;

/** Bounding box of boxes. */
function union(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map(b => b.x0)),
    y0: Math.min(...boxes.map(b => b.y0)),
    x1: Math.max(...boxes.map(b => b.x1)),
    y1: Math.max(...boxes.map(b => b.y1)),
  };
}

export function planTransition(
  previous: readonly PlacedItem[],
  next: readonly PlacedItem[],
  reducedMotion: boolean,
): TransitionPlan {
  const before = new Map(previous.map(p => [p.id, p]));
  const partsOf = new Map<string, PlacedItem[]>();
  for (const p of previous) {
    const base = p.baseId ?? p.id;
    if (base !== p.id) (partsOf.get(base) ?? partsOf.set(base, []).get(base)!).push(p);
  }
  const moves: NodeMove[] = [];
  for (const n of next) {
    const same = before.get(n.id);
    const fromBase = n.baseId && n.baseId !== n.id ? before.get(n.baseId) : undefined;
    const parts = partsOf.get(n.id);
    const from = same ?? fromBase ?? (parts?.length ? union(parts) : undefined);
    if (!from) continue; // a node with no past: it simply fades in with the links
    moves.push({
      id: n.id,
      from: { x0: from.x0, y0: from.y0, x1: from.x1, y1: from.y1 },
      to: { x0: n.x0, y0: n.y0, x1: n.x1, y1: n.y1 },
      entering: !same,
    });
  }
  if (reducedMotion) return { phases: [], moves, total: 0 };
  const phases: TransitionPhase[] = [
    { name: 'fade-out', delay: 0, duration: PHASE_MS.fadeOut },
    { name: 'move', delay: PHASE_MS.fadeOut, duration: PHASE_MS.move },
    { name: 'fade-in', delay: PHASE_MS.fadeOut + PHASE_MS.move, duration: PHASE_MS.fadeIn },
  ];
  return { phases, moves, total: PHASE_MS.fadeOut + PHASE_MS.move + PHASE_MS.fadeIn };
}
