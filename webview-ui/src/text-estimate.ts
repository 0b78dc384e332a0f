/**
 * Text widths without a DOM: the label styles, the average-glyph estimate and truncation. Pure, so
 * drawing layouts that use it also run in node (tests, the bench); text-measure.ts adds the
 * browser's canvas measurer and re-exports this.
 */

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
