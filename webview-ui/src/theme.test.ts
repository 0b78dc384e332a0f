import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fallbackThemeColors, heatPosition, heatScale, outlineOf, readThemeColors, themeKindOf } from './theme';

const body = (...classes: string[]) => ({ classList: { contains: (c: string) => classes.includes(c) } });

describe('theme', () => {
  test('theme kind from the body classes VS Code sets', () => {
    assert.equal(themeKindOf(body('vscode-dark')), 'dark');
    assert.equal(themeKindOf(body('vscode-light')), 'light');
    assert.equal(themeKindOf(body('vscode-high-contrast')), 'high-contrast');
    assert.equal(themeKindOf(body('vscode-high-contrast', 'vscode-high-contrast-light')), 'high-contrast-light');
    assert.equal(themeKindOf(body()), 'dark');
  });

  test('without a document the fallback colours are used', () => {
    assert.deepEqual(readThemeColors(), fallbackThemeColors('dark'));
    assert.equal(fallbackThemeColors('light').kind, 'light');
    assert.notEqual(fallbackThemeColors('light').background, fallbackThemeColors('dark').background);
  });

  test('the heat scale runs from the first stop (cold) to the last (hot)', () => {
    const colors = fallbackThemeColors('dark');
    const heat = heatScale(colors);
    assert.equal(heat(0), colors.heat[0]);
    assert.equal(heat(1), colors.heat[colors.heat.length - 1]);
    assert.equal(heat(Number.NaN), colors.heat[0]);
    assert.equal(heat(2), heat(1), 'clamped');
    assert.match(heat(0.3), /^#[0-9a-f]{6}$/);
    assert.notEqual(heat(0.05), heat(0.3));
  });

  test('the scale is on the square root of the share', () => {
    assert.equal(heatPosition(0.25), 0.5);
    assert.equal(heatPosition(-1), 0);
    assert.equal(heatPosition(4), 1);
  });

  test('node outlines: darker on light themes, the contrast border in high contrast', () => {
    const light = fallbackThemeColors('light');
    assert.notEqual(outlineOf('#1a85ff', light), '#1a85ff');
    const hc = { ...fallbackThemeColors('high-contrast'), contrastBorder: '#6fc3df' };
    assert.equal(outlineOf('#1a85ff', hc), '#6fc3df');
  });
});
