/**
 * The VS Code theme as seen from a webview. Styling is done in CSS with `--vscode-*` variables; only
 * the colours that have to be computed in script (the heat scale of the Sankey nodes and links) are
 * read here, from the computed style, and re-read when VS Code switches theme (it changes the
 * `vscode-light` / `vscode-dark` / `vscode-high-contrast` class and `data-vscode-theme-kind` on body).
 */
import { useEffect, useState } from 'react';
import { color as parseColor, interpolateLab, piecewise } from 'd3';

export type ThemeKind = 'dark' | 'light' | 'high-contrast' | 'high-contrast-light';

export interface ThemeColors {
  kind: ThemeKind;
  /** Heat-scale stops from cold to hot (used on `sqrt(share)`). */
  heat: string[];
  foreground: string;
  background: string;
  /** Border colour for high-contrast themes (empty when the theme has none). */
  contrastBorder: string;
}

const DARK: ThemeColors = {
  kind: 'dark',
  heat: ['#3794ff', '#89d185', '#cca700', '#d18616', '#f14c4c'],
  foreground: '#cccccc',
  background: '#1f1f1f',
  contrastBorder: '',
};

const LIGHT: ThemeColors = {
  kind: 'light',
  heat: ['#1a85ff', '#388a34', '#bf8803', '#d18616', '#e51400'],
  foreground: '#3b3b3b',
  background: '#ffffff',
  contrastBorder: '',
};

/** Colours used where no theme can be read (server-side rendering in tests). */
export function fallbackThemeColors(kind: ThemeKind = 'dark'): ThemeColors {
  const base = kind === 'light' || kind === 'high-contrast-light' ? LIGHT : DARK;
  return { ...base, heat: [...base.heat], kind };
}

/** The theme kind from the body classes VS Code sets. */
export function themeKindOf(body: { classList: { contains(name: string): boolean } }): ThemeKind {
  const c = body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (c.contains('vscode-high-contrast')) return 'high-contrast';
  if (c.contains('vscode-light')) return 'light';
  return 'dark';
}

/** Reads the colours the heat scale needs from the `--vscode-*` variables of the current theme. */
export function readThemeColors(): ThemeColors {
  if (typeof document === 'undefined') return fallbackThemeColors();
  const kind = themeKindOf(document.body);
  const fallback = fallbackThemeColors(kind);
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, dflt: string): string => {
    const v = style.getPropertyValue(name).trim();
    return v && parseColor(v) ? v : dflt;
  };
  const names = ['blue', 'green', 'yellow', 'orange', 'red'];
  return {
    kind,
    heat: names.map((n, i) => read(`--vscode-charts-${n}`, fallback.heat[i]!)),
    foreground: read('--vscode-foreground', fallback.foreground),
    background: read('--vscode-editor-background', fallback.background),
    contrastBorder: kind.startsWith('high-contrast') ? read('--vscode-contrastBorder', '') : '',
  };
}

/** The current theme colours; re-read whenever VS Code changes the theme. */
export function useThemeColors(): ThemeColors {
  const [colors, setColors] = useState<ThemeColors>(readThemeColors);
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() =>
      setColors(prev => {
        const next = readThemeColors();
        return JSON.stringify(next) === JSON.stringify(prev) ? prev : next;
      }),
    );
    observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
    // The variables live in <html>'s style attribute; VS Code rewrites it on theme change too.
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

/** Position of a share on the heat scale: square root, so that small shares stay distinguishable. */
export function heatPosition(share: number): number {
  if (!Number.isFinite(share) || share <= 0) return 0;
  return Math.sqrt(Math.min(1, share));
}

/** A function from share (0..1) to a CSS colour on the theme's heat scale. */
export function heatScale(colors: ThemeColors): (share: number) => string {
  const interpolate = piecewise(interpolateLab, colors.heat);
  const cache = new Map<number, string>();
  return share => {
    const t = Math.round(heatPosition(share) * 1000) / 1000;
    let c = cache.get(t);
    if (c === undefined) {
      c = parseColor(interpolate(t))?.formatHex() ?? colors.heat[0]!;
      cache.set(t, c);
    }
    return c;
  };
}

/** A stroke colour for a node of fill `fill`: a little darker on light themes, lighter on dark ones. */
export function outlineOf(fill: string, colors: ThemeColors): string {
  if (colors.contrastBorder) return colors.contrastBorder;
  const c = parseColor(fill);
  if (!c) return fill;
  return (colors.kind === 'light' ? c.darker(0.7) : c.brighter(0.5)).formatHex();
}
