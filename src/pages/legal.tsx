import { usePage } from "../components/page-context.tsx";
import { Prose, useNumbered } from "../components/blocks.tsx";

/**
 * On a phone the table is wider than the screen: its frame scrolls sideways, says so in words and with
 * shadows at the edge that still hides columns, and takes keyboard focus (a named region) so that the
 * arrow keys scroll it.
 */
function CookieTable() {
  const { t } = usePage();
  const items = useNumbered("cookiePolicy", "item");
  const columns = ["name", "category", "purpose", "duration", "type"] as const;
  return (
    <>
      <p className="table-hint">{t("cookiePolicy.table.scrollHint")}</p>
      <div className="table-wrap" role="region" tabIndex={0} aria-labelledby="cookie-table-caption">
        <table>
          <caption id="cookie-table-caption">{t("cookiePolicy.table.caption")}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {t(`cookiePolicy.table.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i}>
                {columns.map((c) =>
                  c === "name" ? (
                    <th key={c} scope="row">
                      <code>{t(`cookiePolicy.item${i}.${c}`)}</code>
                    </th>
                  ) : (
                    <td key={c}>{t(`cookiePolicy.item${i}.${c}`)}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * Where the footer's "cookie settings" link lands. The buttons need JavaScript (they open the consent
 * dialog or clear the stored choice), so they stay hidden until the runtime shows them.
 */
function ConsentControls() {
  const { t } = usePage();
  return (
    <section id="cookie-settings" aria-labelledby="cookie-settings-title">
      <h2 id="cookie-settings-title">{t("cookies.manageHeading")}</h2>
      <p>{t("cookies.manageBody")}</p>
      <div className="form-actions" data-consent-controls="" hidden>
        <button type="button" className="btn btn-primary" data-cookie-settings="">
          {t("cookies.openSettings")}
        </button>
        <button type="button" className="btn btn-ghost" data-cookie-clear="">
          {t("cookies.withdraw")}
        </button>
      </div>
    </section>
  );
}

/** Privacy policy, terms of service and cookie policy share one layout: title, date, sections. */
export default function LegalPage() {
  const { t, route, formatDate } = usePage();
  const doc = route!.params!.doc;
  const sections = useNumbered(doc, "section");
  return (
    <article className="container legal" aria-labelledby="legal-title">
      <h1 id="legal-title">{t(`${doc}.title`)}</h1>
      <p className="meta">
        {t("labels.updated")} <time dateTime={t(`${doc}.updated`)}>{formatDate(t(`${doc}.updated`))}</time>
      </p>
      <Prose text={t(`${doc}.intro`)} className="prose lead-prose" />
      {sections.map((i) => (
        <section key={i} aria-labelledby={`section${i}`}>
          <h2 id={`section${i}`}>{t(`${doc}.section${i}.heading`)}</h2>
          <Prose text={t(`${doc}.section${i}.body`)} />
          {doc === "cookiePolicy" && i === 1 && <CookieTable />}
        </section>
      ))}
      {doc === "cookiePolicy" && <ConsentControls />}
    </article>
  );
}
