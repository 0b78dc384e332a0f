import { useLayoutEffect, useState } from 'react';
import type { RefObject } from 'react';

export interface Size {
  width: number;
  height: number;
}

/**
 * The content-box size of the element in `ref`, kept current with a ResizeObserver (whole pixels;
 * `null` until measured or while the element has no area, e.g. in a hidden panel). With
 * `enabled` false nothing is observed.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, enabled = true): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!enabled || !el || typeof ResizeObserver === 'undefined') return;
    const update = (width: number, height: number): void => {
      const w = Math.floor(width);
      const h = Math.floor(height);
      setSize(prev =>
        w < 1 || h < 1 ? null : prev && prev.width === w && prev.height === h ? prev : { width: w, height: h },
      );
    };
    const rect = el.getBoundingClientRect();
    update(rect.width, rect.height);
    const observer = new ResizeObserver(entries => {
      const box = entries[entries.length - 1]!.contentRect;
      update(box.width, box.height);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, enabled]);
  return size;
}
