import { usePage } from "../components/page-context.tsx";
import { CtaBand, Monogram, PageHero, Prose, Section, useNumbered } from "../components/blocks.tsx";
import { Picture } from "../components/Picture.tsx";
import { profileName } from "../components/firm-facts.tsx";

/**
 * A person: their photo when the text gives one (`photo:`, see imageKeys in routes.ts), else their initials;
 * the companies they worked for (`previously:`) and a profile elsewhere (`profile:`, a full address) when
 * the text gives them (docs/firm-facts.md).
 */
function Person({ prefix }: { prefix: string }) {
  const { t, has, image } = usePage();
  const name = t(`${prefix}.name`);
  const photo = image(`${prefix}.photo`);
  const profile = has(`${prefix}.profile`) ? t(`${prefix}.profile`) : "";
  return (
    <li className="card person">
      {photo ? <Picture image={photo} alt={name} sizes="5rem" className="portrait" /> : <Monogram name={name} />}
      <h3>{name}</h3>
      <p className="role">{t(`${prefix}.title`)}</p>
      <p>{t(`${prefix}.bio`)}</p>
      {has(`${prefix}.previously`) && (
        <p className="previously">
          <strong>{t("leadership.previouslyLabel")}</strong> {t(`${prefix}.previously`)}
        </p>
      )}
      {profile && (
        <p className="profile">
          <a href={profile}>{t("leadership.profileLink", { name, site: profileName(profile) })}</a>
        </p>
      )}
    </li>
  );
}

export default function AboutPage() {
  const { t } = usePage();
  const values = useNumbered("values", "value");
  const advisors = useNumbered("advisors", "advisor");
  return (
    <>
      <PageHero art="about" title={t("about.heading")} lead={t("about.intro")} />
      <Section id="story" title={t("labels.ourStory")}>
        <Prose text={t("about.story")} />
      </Section>
      <Section id="purpose" tone="muted" title={t("labels.purpose")}>
        <div className="card-grid cols-2">
          <div className="card">
            <h3>{t("mission.title")}</h3>
            <Prose text={t("mission.body")} />
          </div>
          <div className="card">
            <h3>{t("vision.title")}</h3>
            <Prose text={t("vision.body")} />
          </div>
        </div>
      </Section>
      <Section id="values" title={t("values.heading")}>
        <ul className="card-grid cols-4">
          {values.map((i) => (
            <li key={i} className="card">
              <h3>{t(`values.value${i}.title`)}</h3>
              <p>{t(`values.value${i}.description`)}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="leadership" tone="muted" title={t("leadership.heading")} intro={t("leadership.intro")}>
        <ul className="card-grid cols-2">
          <Person prefix="leadership.ceo" />
          <Person prefix="leadership.cto" />
        </ul>
      </Section>
      <Section id="advisors" title={t("advisors.heading")} intro={t("advisors.intro")}>
        <ul className="card-grid cols-3">
          {advisors.map((i) => (
            <Person key={i} prefix={`advisors.advisor${i}`} />
          ))}
        </ul>
      </Section>
      <CtaBand />
    </>
  );
}
