import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ViewName } from '../../shared/webview-protocol';

/**
 * A new HPC Lens webview panel beside the active editor (keeping focus there), kept alive while
 * hidden, loading only the bundle and media, with the view's HTML in place.
 */
export function createViewPanel(
  extensionUri: vscode.Uri,
  type: string,
  title: string,
  view: ViewName,
  options: { testAgent?: boolean } = {},
): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(
    type,
    title,
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    },
  );
  panel.webview.html = webviewHtml(panel.webview, extensionUri, view, title, options);
  return panel;
}

/** The HTML of any HPC Lens webview: the one bundle, the view chosen by name, a strict CSP with a nonce. */
export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  view: ViewName,
  title: string,
  options: { testAgent?: boolean } = {},
): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', f));
  const csp = [
    `default-src 'none'`,
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('webview.css')}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="root" data-view="${view}"${options.testAgent ? ' data-test-agent="on"' : ''}></div>
<script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
}
