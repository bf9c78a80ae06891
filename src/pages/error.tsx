import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";

/** The route error fallback (spec §2): titled 'Unexpected Application Error!' with a status or a message. */
export default function ErrorPage({ status, message }: { status?: number; message?: string }) {
  const { t, href } = usePage();
  return (
    <PageHero title={t("error.title")} lead={t("error.body")}>
      <p className="error-detail" data-error-detail="">
        {status ? `${status}` : ""}
        {status && message ? " " : ""}
        {message ?? ""}
      </p>
      <a className="btn btn-primary" href={href("home")}>
        {t("notFound.home")}
      </a>
    </PageHero>
  );
}
