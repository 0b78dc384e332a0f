/**
 * Text from a profile (function names, file paths, context labels) as literal Markdown: every ASCII
 * punctuation character backslash-escaped (CommonMark §2.4 makes each of them escapable) and line
 * breaks folded to spaces, so a name such as `**x**` or `[open](command:…)` reads as itself in a
 * tooltip instead of turning into emphasis, a link or a heading. No vscode import: unit-tested.
 */
export function markdownText(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, c => `\\${c}`).replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ');
}
