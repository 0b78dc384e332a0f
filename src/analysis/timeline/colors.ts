/**
 * Stable categorical colours for functions and modules, shared by the timeline and the Sankey (pure
 * code: the webview imports it). A name's colour depends only on the name: FNV-1a 32-bit hash of
 * its UTF-16 code units, modulo the palette size. So `MPI_Send` has the same colour in every view,
 * every trace and every session; two names may share a colour (the legend tells them apart).
 *
 * The palette is Tableau 10 followed by its lighter companions (Tableau 20's second half): distinct
 * hues that read on both dark and light themes.
 */
export const CATEGORICAL_PALETTE: readonly string[] = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#a0cbe8',
  '#ffbe7d',
  '#ff9d9a',
  '#86bcb6',
  '#8cd17d',
  '#f1ce63',
  '#d4a6c8',
  '#fabfd2',
  '#d7b5a6',
  '#79706e',
];

/** FNV-1a 32-bit hash of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Index into the palette for a function or module name. */
export function colourIndex(name: string, paletteSize = CATEGORICAL_PALETTE.length): number {
  return fnv1a(name) % paletteSize;
}

/** The colour of a function or module name (CSS hex). */
export function colourOf(name: string, palette: readonly string[] = CATEGORICAL_PALETTE): string {
  return palette[colourIndex(name, palette.length)]!;
}
