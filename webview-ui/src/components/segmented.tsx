/** @jsxRuntime automatic */
/** A labelled row of mutually exclusive buttons (a radio group styled as a segmented control). */
export function Segmented<T extends string>({
  label,
  value,
  choices,
  onChange,
  disabled,
}: {
  label: string;
  value: T;
  choices: [T, string][];
  onChange: (v: T) => void;
  disabled?: (v: T) => boolean;
}) {
  return (
    <div className="callflow-segmented" role="radiogroup" aria-label={label}>
      <span className="callflow-segmented-label">{label}</span>
      {choices.map(([v, text]) => (
        <button
          key={v}
          role="radio"
          aria-checked={v === value}
          className={'callflow-segment' + (v === value ? ' is-on' : '')}
          disabled={disabled?.(v) ?? false}
          data-choice={v}
          onClick={() => {
            if (v !== value) onChange(v);
          }}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
