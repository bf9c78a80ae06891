/**
 * The hidden fields both forms send: the page's language (for the endpoint's answer) and the honeypot,
 * which people never see or reach and bots fill in (the endpoint then drops the submission silently).
 */
export function HiddenFormFields({ form, locale }: { form: string; locale: string }) {
  return (
    <>
      <input type="hidden" name="locale" value={locale} />
      <div className="hp-field" aria-hidden="true">
        <label htmlFor={`${form}-website`}>Website</label>
        <input id={`${form}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
    </>
  );
}
