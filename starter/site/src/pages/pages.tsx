import type { CollectionEntry } from "sitegen";
import { usePage } from "./page-context.ts";

/** A link to each service's page, with its description. */
function ServiceList({ entries }: { entries: CollectionEntry[] }) {
  return (
    <ul>
      {entries.map((entry) => (
        <li key={entry.key}>
          <a href={entry.path}>{String(entry.data.title)}</a>: {String(entry.data.description)}
        </li>
      ))}
    </ul>
  );
}

export function Home() {
  const { t, collection, href } = usePage();
  return (
    <>
      <h1>{t("home.heading")}</h1>
      <p>{t("home.intro")}</p>
      <h2>{t("home.servicesHeading")}</h2>
      <ServiceList entries={collection("services")} />
      <p>
        <a href={href("services")}>{t("home.allServices")}</a>
      </p>
    </>
  );
}

export function Services() {
  const { t, listing } = usePage();
  return (
    <>
      <h1>{t("services.heading")}</h1>
      <p>{t("services.intro")}</p>
      <ServiceList entries={listing?.entries ?? []} />
    </>
  );
}

/** One entry of the collection: its title, and its Markdown body as HTML. */
export function Service() {
  const { t, entry, href } = usePage();
  if (!entry) throw new Error("The service page is rendered without an entry.");
  return (
    <article>
      <h1>{String(entry.data.title)}</h1>
      <div dangerouslySetInnerHTML={{ __html: entry.html }} />
      <p>
        <a href={href("services")}>{t("services.back")}</a>
      </p>
    </article>
  );
}

export function NotFound() {
  const { t, href } = usePage();
  return (
    <>
      <h1>{t("notFound.heading")}</h1>
      <p>{t("notFound.body")}</p>
      <p>
        <a href={href("home")}>{t("notFound.home")}</a>
      </p>
    </>
  );
}
