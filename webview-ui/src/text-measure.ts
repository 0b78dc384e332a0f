/**
 * Text measuring for SVG labels, which do not wrap or clip by themselves. In the browser the real
 * font is measured on a canvas; elsewhere (server-side rendering in tests) an average glyph width
 * is assumed.
 */
import { useMemo } from 'react';

import { estimateText, LABEL_FONTS, type MeasureText } from './text-estimate';

export { estimateText, LABEL_FONTS, truncateText, type MeasureText, type TextStyle } from './text-estimate';

/** A canvas-backed measurer using `fontFamily`, or the estimate when no canvas is available. */
export function createTextMeasurer(fontFamily: string): MeasureText {
  if (typeof document === 'undefined') return estimateText;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return estimateText;
  const cache = new Map<string, number>();
  return (text, style) => {
    const key = style + '\u0000' + text;
    let w = cache.get(key);
    if (w === undefined) {
      const f = LABEL_FONTS[style];
      ctx.font = `${f.weight} ${f.size}px ${fontFamily}`;
      w = ctx.measureText(text).width;
      cache.set(key, w);
    }
    return w;
  };
}

/** Measures label text with the real font in the browser, by estimate elsewhere (tests). */
export function useMeasureText(): MeasureText {
  return useMemo(
    () =>
      typeof document === 'undefined'
        ? estimateText
        : createTextMeasurer(getComputedStyle(document.body).fontFamily || 'sans-serif'),
    [],
  );
}
