/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
import type { ReactNode } from 'react';

/** A centred, quiet message filling its container: loading and empty states. */
export function StatusMessage({
  title,
  children,
  busy = false,
}: {
  title: string;
  children?: ReactNode;
  busy?: boolean;
}) {
  return (
    <div className="status-message" role="status" aria-busy={busy || undefined}>
      {busy ? (
        <div className="status-progress" aria-hidden="true">
          <div />
        </div>
      ) : null}
      <div className="status-title">{title}</div>
      {children ? <div className="status-detail">{children}</div> : null}
    </div>
  );
}
