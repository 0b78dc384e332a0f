/**
 * Colours of a trace analysis's semantic classes (paper §3.4: computation, waiting, synchronization;
 * grey for what is not on a significant path), from the theme's chart colours, the same in the
 * Trace Analysis panel and in the timeline coloured by class.
 */
export type ClassKey = 'insignificant' | 'computation' | 'wait' | 'sync';

const FALLBACK: Record<ClassKey, string> = {
  insignificant: '#8b8b8b',
  computation: '#3794ff',
  wait: '#d18616',
  sync: '#b180d7',
};

const VARIABLE: Record<ClassKey, string> = {
  insignificant: '--vscode-descriptionForeground',
  computation: '--vscode-charts-blue',
  wait: '--vscode-charts-orange',
  sync: '--vscode-charts-purple',
};

/** The classes' colours in the current theme (fallbacks where no theme can be read). */
export function classColours(): Record<ClassKey, string> {
  if (typeof document === 'undefined') return { ...FALLBACK };
  const style = getComputedStyle(document.documentElement);
  const out = { ...FALLBACK };
  for (const k of Object.keys(VARIABLE) as ClassKey[])
    out[k] = style.getPropertyValue(VARIABLE[k]).trim() || FALLBACK[k];
  return out;
}

/** A CSS colour for a class name (unknown names are insignificant). */
export function classColourOf(colours: Record<ClassKey, string>, name: string): string {
  return colours[name as ClassKey] ?? colours.insignificant;
}
