/** A 2D context that records what is drawn (for tests of the canvas code without a browser). */
import type { Ctx2D } from './tile-render';

export interface FillOp {
  x: number;
  y: number;
  w: number;
  h: number;
  fill: string;
  alpha: number;
}

export class RecordingContext implements Ctx2D {
  fillStyle: string | CanvasGradient | CanvasPattern = '#000';
  strokeStyle: string | CanvasGradient | CanvasPattern = '#000';
  globalAlpha = 1;
  lineWidth = 1;
  font = '10px sans-serif';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  textAlign: CanvasTextAlign = 'start';
  readonly fills: FillOp[] = [];
  readonly texts: { text: string; x: number; y: number }[] = [];
  readonly strokes: { x: number; y: number; w: number; h: number }[] = [];
  curves = 0;

  fillRect(x: number, y: number, w: number, h: number): void {
    this.fills.push({ x, y, w, h, fill: String(this.fillStyle), alpha: this.globalAlpha });
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.strokes.push({ x, y, w, h });
  }
  fillText(text: string, x: number, y: number): void {
    this.texts.push({ text, x, y });
  }
  /** 6 px per character, like a small UI font. */
  measureText(text: string): TextMetrics {
    return { width: text.length * 6 } as TextMetrics;
  }
  beginPath(): void {}
  moveTo(): void {}
  lineTo(): void {}
  bezierCurveTo(): void {
    this.curves++;
  }
  closePath(): void {}
  stroke(): void {}
  fill(): void {}
  save(): void {}
  restore(): void {}
  rect(): void {}
  clip(): void {}
}
