import { usePage } from "../components/page-context.tsx";
import { QuietPage } from "../components/blocks.tsx";

/**
 * The route error fallback (spec §2): titled 'Unexpected Application Error!' with a status or a message.
 * With `detailSlot` (the navigation island's template) the detail line is left for the browser to fill,
 * labelled in the page's language.
 */
export default function ErrorPage({
  status,
  message,
  detailSlot,
}: {
  status?: number;
  message?: string;
  detailSlot?: boolean;
}) {
  const { t, href } = usePage();
  return (
    <QuietPage visual="serverError" title={t("error.title")} lead={t("error.body")}>
      {status !== undefined && (
        <p className="error-detail">
          {t("error.status")}: {status}
        </p>
      )}
      {message && <p className="error-detail">{message}</p>}
      {detailSlot && <p className="error-detail" data-error-detail="" data-status-label={t("error.status")} />}
      <a className="btn btn-primary" href={href("home")}>
        {t("error.home")}
      </a>
    </QuietPage>
  );
}
