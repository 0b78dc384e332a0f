import { useCallback, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';

/**
 * Wheel zoom and background drag pan of an SVG (d3-zoom, scale 0.25–8×, no double-click zoom),
 * never started on an element matching `ignore` (its nodes keep their clicks and drags). The
 * behaviour is attached while `enabled` and re-attached when `attachKey` changes (the SVG element
 * mounts or is replaced). With `wheelNeedsModifier` (a drawing taller than its scrolling box) a
 * plain wheel scrolls and only Ctrl/⌘ + wheel zooms. Returns the transform to draw with and a reset
 * to the identity.
 */
export function useSvgZoom(
  svgRef: RefObject<SVGSVGElement | null>,
  options: { enabled: boolean; ignore: string; attachKey: unknown; wheelNeedsModifier?: boolean },
): {
  transform: ZoomTransform;
  reset: () => void;
} {
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const behaviour = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const { enabled, ignore, attachKey } = options;
  const modifier = options.wheelNeedsModifier ?? false;
  useEffect(() => {
    const svg = svgRef.current;
    if (!enabled || !svg) return;
    const z = d3zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.25, 8])
      .filter(
        e =>
          (e.type === 'wheel' ? !modifier || e.ctrlKey || e.metaKey : e.button === 0) &&
          !(e.target as Element).closest?.(ignore),
      )
      .on('zoom', e => setTransform(e.transform));
    behaviour.current = z;
    select(svg).call(z).on('dblclick.zoom', null);
    return () => {
      select(svg).on('.zoom', null);
    };
  }, [svgRef, enabled, ignore, attachKey, modifier]);
  const reset = useCallback(() => {
    const svg = svgRef.current;
    if (svg && behaviour.current) select(svg).call(behaviour.current.transform, zoomIdentity);
    else setTransform(zoomIdentity);
  }, [svgRef]);
  return { transform, reset };
}
