import { usePage } from "./page-context.tsx";
import { CardLink } from "./blocks.tsx";
import { serviceLineIcons } from "./icons.tsx";

/** The top of a service line's card (home page, services page): its icon and badge, and its name linked to its page. */
export function ServiceLineHead({ line }: { line: string }) {
  const { t, href } = usePage();
  const Icon = serviceLineIcons[line];
  return (
    <>
      <div className="card-head">
        <Icon className="card-icon" size={28} />
        <p className="badge">{t(`services.${line}.badge`)}</p>
      </div>
      <h3>
        <CardLink href={href(`services.${line}`)}>{t(`services.${line}.name`)}</CardLink>
      </h3>
    </>
  );
}
