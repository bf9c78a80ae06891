import { usePage } from "../components/page-context.tsx";
import { PageHero } from "../components/blocks.tsx";

/** The route error fallback (spec §2): titled 'Unexpected Application Error!' with a status or a message. */
export default function ErrorPage({ status, message }: { status?: number; message?: string }) {
  const { t, href } = usePage();
  return (
    <PageHero title={t("error.title")} lead={t("error.body")}>
      {status !== undefined && (
        <p className="error-detail">
          {t("error.status")}: {status}
        </p>
      )}
      {message && <p className="error-detail">{message}</p>}
      <a className="btn btn-primary" href={href("home")}>
        {t("error.home")}
      </a>
    </PageHero>
  );
}
