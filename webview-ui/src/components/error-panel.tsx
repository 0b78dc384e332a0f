/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)

/** A themed error panel: the host reported an error, or the view could not start. */
export function ErrorPanel({
  title = 'Something went wrong',
  message,
  onDismiss,
}: {
  title?: string;
  message: string;
  /** Shows a close button when given. */
  onDismiss?: () => void;
}) {
  return (
    <div className="error-panel" role="alert">
      <svg className="error-panel-icon" viewBox="0 0 16 16" width="20" height="20" aria-hidden="true">
        <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.4" />
        <path d="M8 4.2v4.6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        <circle cx="8" cy="11.4" r="0.95" fill="currentColor" />
      </svg>
      <div className="error-panel-body">
        <div className="error-panel-title">{title}</div>
        <div className="error-panel-message">{message}</div>
      </div>
      {onDismiss ? (
        <button type="button" className="error-panel-close" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
          </svg>
        </button>
      ) : null}
    </div>
  );
}
