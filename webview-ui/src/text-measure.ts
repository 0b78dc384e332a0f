/**
 * Text measuring for SVG labels, which do not wrap or clip by themselves. In the browser the real
 * font is measured on a canvas; elsewhere (server-side rendering in tests) an average glyph width
 * is assumed.
 */
import { useMemo } from 'react';

export type TextStyle = 'title' | 'detail';

/** Width in pixels of `text` drawn in `style`. */
export type MeasureText = (text: string, style: TextStyle) => number;

/** Font sizes (px) and weights of the two label styles; styles.css uses the same. */
export const LABEL_FONTS: Record<TextStyle, { size: number; weight: number }> = {
  title: { size: 12, weight: 600 },
  detail: { size: 11, weight: 400 },
};

/** Average glyph width as a fraction of the font size, for proportional UI fonts. */
const AVERAGE_EM: Record<TextStyle, number> = { title: 0.6, detail: 0.56 };

export const estimateText: MeasureText = (text, style) => text.length * LABEL_FONTS[style].size * AVERAGE_EM[style];

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

/**
 * `text` shortened with an ellipsis so that it fits in `maxWidth` (empty when not even the ellipsis
 * fits). Binary search over the kept prefix length.
 */
export function truncateText(text: string, maxWidth: number, style: TextStyle, measure: MeasureText): string {
  if (measure(text, style) <= maxWidth) return text;
  const ellipsis = '…';
  if (measure(ellipsis, style) > maxWidth) return '';
  let lo = 0;
  let hi = text.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid).trimEnd() + ellipsis, style) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? ellipsis : text.slice(0, lo).trimEnd() + ellipsis;
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
