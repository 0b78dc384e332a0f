import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const EXTENSION = join(ROOT, 'src', 'extension');

/** Calls whose first argument the user reads. */
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
/** Option properties the user reads (dialogs, quick picks, input boxes, progress, panels, CodeLens commands). */
const TEXT_PROPERTIES = new Set(['title', 'placeHolder', 'openLabel', 'prompt']);

/**
 * Whether `node` is English written in place: a string or template literal whose own text (codicons
 * like `$(flame)` left out) has a letter. `vscode.l10n.t(…)`, variables and templates that only
 * join translated parts with icons and punctuation pass.
 */
function isBareText(node: ts.Expression): boolean {
  const words = (text: string) => /\p{L}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return words(node.text);
  if (ts.isTemplateExpression(node))
    return words(node.head.text) || node.templateSpans.some(s => words(s.literal.text));
  if (ts.isParenthesizedExpression(node)) return isBareText(node.expression);
  if (ts.isConditionalExpression(node)) return isBareText(node.whenTrue) || isBareText(node.whenFalse);
  return false;
}

/** `file:line: text` for every user-visible string in `source` that does not go through `vscode.l10n.t`. */
export function unwrappedStrings(source: string, file: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push(`${file}:${line}: ${node.getText(sf).replace(/\s+/g, ' ').slice(0, 100)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const first = node.arguments[0];
      if (MESSAGE_CALLS.has(name) && first && isBareText(first)) report(first);
    } else if (ts.isPropertyAssignment(node)) {
      const key = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : '';
      if (TEXT_PROPERTIES.has(key) && isBareText(node.initializer)) report(node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function extensionSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : extensionSources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('user-visible strings in extension code go through vscode.l10n.t', () => {
  it('finds no bare message, dialog, quick-pick, progress or lens title text in src/extension', () => {
    const files = extensionSources(EXTENSION);
    assert.ok(files.length > 40, `only ${files.length} extension sources found under ${EXTENSION}`);
    const found = files.flatMap(f => unwrappedStrings(readFileSync(f, 'utf8'), relative(ROOT, f)));
    assert.deepEqual(found, [], `wrap these in vscode.l10n.t('…', args):\n${found.join('\n')}`);
  });

  it('catches bare strings and template literals, and passes wrapped ones, variables and icon-only templates', () => {
    const source = [
      "import * as vscode from 'vscode';",
      'export async function f(name: string, n: number, title: string) {',
      "  void vscode.window.showInformationMessage('HPC Lens: open a profile first.');",
      '  void vscode.window.showErrorMessage(`HPC Lens could not open ${name}`);',
      "  void vscode.window.showWarningMessage(n === 1 ? vscode.l10n.t('one') : `${n} files`);",
      "  await vscode.window.showOpenDialog({ title: 'Open a profile', openLabel: vscode.l10n.t('Open') });",
      '  await vscode.window.showQuickPick([], { placeHolder: `recorded as ${name}`, title });',
      "  await vscode.window.showInputBox({ prompt: 'Rate' });",
      "  void vscode.window.showInformationMessage(vscode.l10n.t('HPC Lens: {0} changed.', name));",
      '  void vscode.window.showWarningMessage(title);',
      "  const lens = { title: `$(flame) ${vscode.l10n.t('{0} inclusive', n)}`, command: 'hpcLens.showCallflow' };",
      "  const message = { type: 'dmv/ensemble', title: name };",
      '  return [lens, message];',
      '}',
    ].join('\n');
    const found = unwrappedStrings(source, 'src/extension/example.ts');
    assert.deepEqual(
      found.map(f => f.split(': ')[0]),
      [
        'src/extension/example.ts:3',
        'src/extension/example.ts:4',
        'src/extension/example.ts:5',
        'src/extension/example.ts:6',
        'src/extension/example.ts:7',
        'src/extension/example.ts:8',
      ],
      found.join('\n'),
    );
    assert.match(found[0]!, /'HPC Lens: open a profile first\.'/);
  });
});
