import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hsl, interpolateReds, schemeOrRd } from 'd3';
import {
  borderClasses,
  DEFAULT_PALETTE,
  PALETTE_TOKENS,
  paletteFromTheme,
  setEnsemblePalette,
  borderColour,
  countColour,
  countPosition,
  countTextColour,
  diffColour,
  diffPosition,
  EMPTY_BIN_COLOUR,
  gradientStops,
  resolvedTargetColour,
  TARGET_COLOUR,
  TARGET_COLOUR_CSS,
} from './ensemble-colours';

const lightness = (c: string): number => hsl(c).l;
/** Hue in degrees; reds wrap around 0. */
const hue = (c: string): number => hsl(c).h;
const isRed = (c: string): boolean => hue(c) < 25 || hue(c) > 335;
const isGreen = (c: string): boolean => hue(c) > 80 && hue(c) < 160;

describe('count scale (gradient fill)', () => {
  test('empty bins are white; more runs are darker; the scale is global', () => {
    assert.equal(countColour(0, 9), EMPTY_BIN_COLOUR);
    const shades = [1, 3, 5, 9].map(c => lightness(countColour(c, 9)));
    for (let i = 1; i < shades.length; i++) assert.ok(shades[i]! < shades[i - 1]!, `lighter at ${i}`);
    assert.equal(countColour(4, 9), countColour(4, 9));
    // Same count, another scale: a different colour (the scale is what makes nodes comparable).
    assert.notEqual(countColour(4, 9), countColour(4, 40));
  });

  test('one run among a thousand still differs from an empty bin', () => {
    assert.ok(countPosition(1, 1000) > 0.05);
    assert.notEqual(countColour(1, 1000), EMPTY_BIN_COLOUR);
    assert.equal(countPosition(5, 0), 0, 'no scale, nothing to colour');
  });

  test('AT-7: a bimodal 9/0…0/9 histogram has dark stops at the top and bottom and a light middle', () => {
    const counts = [9, ...new Array(18).fill(0), 9];
    const stops = gradientStops({ min: 1, max: 2.2, counts }, 9);
    assert.equal(stops.length, 20);
    assert.deepEqual(
      stops.map(s => s.offset),
      counts.map((_, i) => (i + 0.5) / 20),
      'stops at bin centres, bin 0 at the top',
    );
    assert.ok(lightness(stops[0]!.colour) < 0.45 && lightness(stops[19]!.colour) < 0.45, 'dark ends');
    for (const s of stops.slice(1, 19)) assert.equal(s.colour, EMPTY_BIN_COLOUR);
  });

  test('bin counts are readable on their bins', () => {
    assert.equal(countTextColour(9, 9), '#ffffff');
    assert.equal(countTextColour(1, 9), '#1f1f1f');
  });
});

describe('border scale (OrRd, 9 classes, gamma 0.5)', () => {
  test('ends of the domain take the first and last class; the square root spreads small values', () => {
    const classes = borderClasses();
    assert.equal(classes.length, 9);
    assert.equal(borderColour(1, [1, 5]), classes[0]);
    assert.equal(borderColour(5, [1, 5]), classes[8]);
    // 25 % of the range → √0.25 = 0.5 → class 4 (linear would give class 2).
    assert.equal(borderColour(2, [1, 5]), classes[4]);
    assert.equal(borderColour(99, [1, 5]), classes[8], 'clamped');
    assert.equal(borderColour(3, [3, 3]), classes[8], 'one value: the darkest');
  });
});

describe('diff scale (AT-9)', () => {
  test('slower (positive) is red, faster (negative) is green, no change is neither', () => {
    assert.ok(isRed(diffColour(2, 2)), diffColour(2, 2));
    assert.ok(isRed(diffColour(1.2, 2)));
    assert.ok(isGreen(diffColour(-2, 2)), diffColour(-2, 2));
    assert.ok(isGreen(diffColour(-1.2, 2)));
    const zero = diffColour(0, 2);
    assert.ok(!isRed(zero) && !isGreen(zero) && lightness(zero) > 0.7, zero);
  });

  test('the scale is symmetric about 0 and clamped to ±M', () => {
    for (const d of [0.1, 0.5, 1.7, 2]) assert.equal(diffPosition(d, 2) + diffPosition(-d, 2), 1);
    assert.equal(diffColour(5, 2), diffColour(2, 2));
    assert.equal(diffColour(-5, 2), diffColour(-2, 2));
    assert.equal(diffPosition(3, 0), 0.5, 'no domain: neutral');
  });
});

test('the target colour is the theme token hpcLens.ensembleTarget, CallFlow’s green without one', () => {
  assert.equal(TARGET_COLOUR_CSS, 'var(--vscode-hpcLens-ensembleTarget, #4DAF4A)');
  const themed = { getPropertyValue: (n: string) => (n === '--vscode-hpcLens-ensembleTarget' ? ' #00ff00 ' : '') };
  assert.equal(resolvedTargetColour(themed), '#00ff00');
  assert.equal(resolvedTargetColour({ getPropertyValue: () => '' }), TARGET_COLOUR);
});

describe('runtime and distribution colour maps as theme tokens (CallFlow §4.9)', () => {
  const style = (values: Record<string, string>) => ({ getPropertyValue: (name: string) => values[name] ?? '' });

  test('at their defaults (or unset) the tokens give OrRd 9 and Reds themselves', () => {
    for (const p of [
      paletteFromTheme(style({})),
      paletteFromTheme(
        style({
          [PALETTE_TOKENS.runtimeLow]: '#FFF7EC',
          [PALETTE_TOKENS.runtimeHigh]: ' #7f0000 ',
          [PALETTE_TOKENS.distributionLow]: '#fff5f0',
          [PALETTE_TOKENS.distributionHigh]: '#67000D',
        }),
      ),
    ]) {
      assert.deepEqual(p.runtime, schemeOrRd[9]);
      assert.equal(p.distribution(0.4), interpolateReds(0.4));
    }
  });

  test('a theme that changes the ends changes every border class and the count scale, and nothing else', () => {
    const p = paletteFromTheme(
      style({
        [PALETTE_TOKENS.runtimeLow]: '#ffffff',
        [PALETTE_TOKENS.runtimeHigh]: '#000080',
        [PALETTE_TOKENS.distributionLow]: '#ffffff',
        [PALETTE_TOKENS.distributionHigh]: 'not a colour',
      }),
    );
    assert.equal(p.runtime.length, 9);
    assert.equal(hsl(p.runtime[0]!).l, 1);
    assert.ok(Math.abs(hsl(p.runtime[8]!).h - 240) < 1, p.runtime[8]);
    // An unreadable token keeps that end's default: white → Reds' dark end.
    assert.equal(hsl(p.distribution(0)).l, 1);
    try {
      setEnsemblePalette(p);
      assert.deepEqual(borderClasses(), p.runtime);
      assert.equal(borderColour(10, [0, 10]), p.runtime[8]);
      const dark = countColour(9, 9);
      assert.ok(hsl(dark).h < 10 || hsl(dark).h > 340, dark);
      assert.equal(countColour(0, 9), EMPTY_BIN_COLOUR);
      assert.equal(diffColour(2, 2), diffColour(2, 2));
    } finally {
      setEnsemblePalette(DEFAULT_PALETTE);
    }
    assert.deepEqual(borderClasses(), schemeOrRd[9]);
  });
});
