/**
 * What pure extension modules (those unit tests load without `vscode`) translate with: the host
 * passes `vscode.l10n`, tests get `english`. The calls stay `l10n.t('…', args)`, the form
 * `@vscode/l10n-dev export` collects into the bundle.
 */
export interface L10n {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** The English text with `{0}`, `{1}`… filled in: what `vscode.l10n.t` returns without a bundle. */
export const english: L10n = {
  t: (message, ...args) =>
    message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole)),
};
