/**
 * The site's illustrations by name: a page asks for the one of its kind (`<Art name="energy" />`). Each is a
 * build-time inline SVG, decorative (aria-hidden), drawn for one purpose; see parts.tsx for the inks.
 */
import { Frame } from "./parts.tsx";
import { SECTOR_ART } from "./sectors.tsx";
import { SERVICE_ART, ServicesJourney } from "./services.tsx";
import { About, Contact, Home, Industries, Insights, Results, Technologies } from "./pages.tsx";
import { Failed, NotFound, Sent, ServerError, Waiting } from "./quiet.tsx";

const HERO_ART = {
  ...SECTOR_ART,
  ...SERVICE_ART,
  home: Home,
  services: ServicesJourney,
  technologies: Technologies,
  industries: Industries,
  about: About,
  insights: Insights,
  results: Results,
  contact: Contact,
} as const;

const QUIET_ART = {
  notFound: NotFound,
  serverError: ServerError,
  sent: Sent,
  waiting: Waiting,
  failed: Failed,
} as const;

export type HeroArt = keyof typeof HERO_ART;
export type QuietArt = keyof typeof QUIET_ART;

/** A hero's illustration: shown beside the heading from 64rem, left out on narrower screens (visuals.css). */
export function Art({ name }: { name: HeroArt }) {
  const Drawing = HERO_ART[name];
  return (
    <Frame name={name}>
      <Drawing />
    </Frame>
  );
}

/** A quiet visual, on a light page, at every width. */
export function QuietVisual({ name }: { name: QuietArt }) {
  const Drawing = QUIET_ART[name];
  return (
    <Frame name={name} quiet>
      <Drawing />
    </Frame>
  );
}
