/**
 * The hidden fields both forms send: the page's language (for the endpoint's answer) and the honeypot,
 * which people never see or reach and bots fill in (the endpoint then drops the submission silently).
 */
export function HiddenFormFields({ locale }: { locale: string }) {
  return (
    <>
      <input type="hidden" name="locale" value={locale} />
      {/* The label wraps its field: no id, so two forms of a page never share one. */}
      <div className="hp-field" aria-hidden="true">
        <label>
          Website <input name="website" type="text" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
    </>
  );
}
