import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";

export default function NotFoundPage() {
  const { t, href } = usePage();
  return (
    <PageHero eyebrow="404" title={t("notFound.title")} lead={t("notFound.body")}>
      <a className="btn btn-primary" href={href("home")}>
        {t("notFound.home")}
      </a>
      <a className="btn btn-ghost" href={href("contact")}>
        {t("nav.contact")}
      </a>
    </PageHero>
  );
}
