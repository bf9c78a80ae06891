/**
 * The site as sitegen sees it (src/generator/site-definition.ts): the document shell, every route of the
 * spec's site map (each exists in every locale of content/site.yaml, under the locale's prefix), and the
 * pages that are not routes: the not-found and error pages, and where the forms send a visitor without
 * JavaScript.
 */
import { defineSite, type CollectionDefinition, type RouteDefinition } from "../generator/site-definition.ts";
import { Document } from "../components/Document.tsx";
import { ROUTED_SECTORS, SERVICE_LINES } from "./sections.ts";
import HomePage from "./home.tsx";
import AboutPage from "./about.tsx";
import ServicesPage from "./services.tsx";
import ServiceLinePage from "./service-line.tsx";
import TechnologiesPage from "./technologies.tsx";
import IndustriesPage from "./industries.tsx";
import IndustryPage from "./industry.tsx";
import ContactPage from "./contact.tsx";
import LegalPage from "./legal.tsx";
import NotFoundPage from "./not-found.tsx";
import ErrorPage from "./error.tsx";
import FormResultPage from "./form-result.tsx";
import InsightsPage from "./insights.tsx";
import InsightPage from "./insight.tsx";
import InsightsTagsPage from "./insights-tags.tsx";
import InsightsTagPage from "./insights-tag.tsx";
import ResultsPage from "./results.tsx";
import CasePage from "./case.tsx";

type Page = RouteDefinition["page"];
const page = (component: unknown) => component as Page;

export const routes: RouteDefinition[] = [
  { id: "home", path: "/", page: page(HomePage) },
  { id: "about", path: "/about", page: page(AboutPage), schemaType: "AboutPage" },
  { id: "services", path: "/services", page: page(ServicesPage), schemaType: "CollectionPage" },
  ...SERVICE_LINES.map((line) => ({
    id: `services.${line}`,
    path: `/services/${line}`,
    page: page(ServiceLinePage),
    params: { line },
    schemaType: "Service",
  })),
  { id: "technologies", path: "/technologies", page: page(TechnologiesPage) },
  { id: "industries", path: "/industries", page: page(IndustriesPage), schemaType: "CollectionPage" },
  ...Object.entries(ROUTED_SECTORS).map(([slug, sector]) => ({
    id: `industries.${slug}`,
    path: `/industries/${slug}`,
    page: page(IndustryPage),
    params: { sector },
  })),
  {
    id: "insights",
    path: "/insights",
    page: page(InsightsPage),
    schemaType: "CollectionPage",
    list: { collection: "insights", pageSize: 12 },
  },
  {
    id: "insights.article",
    path: "/insights/:slug",
    page: page(InsightPage),
    entries: { collection: "insights", listRoute: "insights" },
  },
  // Every tag with its count, and one listing per tag in the languages that have articles with it.
  { id: "insights.tags", path: "/insights/tags", page: page(InsightsTagsPage), schemaType: "CollectionPage" },
  {
    id: "insights.tag",
    path: "/insights/tags/:group",
    page: page(InsightsTagPage),
    schemaType: "CollectionPage",
    list: { collection: "insights", pageSize: 12, groupBy: "tags", indexRoute: "insights.tags" },
  },
  // The typical results and the firm's cases: a page of results even before the first case is published.
  {
    id: "results",
    path: "/results",
    page: page(ResultsPage),
    schemaType: "CollectionPage",
    list: { collection: "cases", pageSize: 12 },
  },
  {
    id: "results.case",
    path: "/results/:slug",
    page: page(CasePage),
    entries: { collection: "cases", listRoute: "results" },
  },
  { id: "contact", path: "/contact", page: page(ContactPage), schemaType: "ContactPage" },
  { id: "privacy-policy", path: "/privacy-policy", page: page(LegalPage), params: { doc: "privacy" } },
  { id: "terms-of-service", path: "/terms-of-service", page: page(LegalPage), params: { doc: "terms" } },
  { id: "cookie-policy", path: "/cookie-policy", page: page(LegalPage), params: { doc: "cookiePolicy" } },
];

/**
 * Where the form endpoints (src/api) send a visitor whose browser posted without JavaScript (303 See
 * Other), by result: its title and message keys.
 */
export const FORM_RESULTS = {
  "newsletter-success": { title: "newsletter.successTitle", message: "newsletter.successMessage" },
  "contact-success": { title: "contactForm.successTitle", message: "contactForm.successMessage" },
  error: { title: "result.errorHeading", message: "api.invalid" },
  // Double opt-in (submissions.doubleOptIn): after signing up, and where the e-mail's link leads.
  "newsletter-pending": { title: "newsletter.pendingTitle", message: "newsletter.pendingMessage" },
  "newsletter-confirmed": {
    title: "newsletterConfirm.confirmedTitle",
    message: "newsletterConfirm.confirmedMessage",
    eyebrow: "newsletterConfirm.confirmedEyebrow",
  },
  "newsletter-confirm-failed": {
    title: "newsletterConfirm.failedTitle",
    message: "newsletterConfirm.failedMessage",
    eyebrow: "newsletterConfirm.failedEyebrow",
  },
  // Where the unsubscribe link's page leads once the address has left, or when the link is not valid.
  "newsletter-unsubscribed": {
    title: "newsletterUnsubscribe.doneTitle",
    message: "newsletterUnsubscribe.doneMessage",
    eyebrow: "newsletterUnsubscribe.doneEyebrow",
  },
  "newsletter-unsubscribe-failed": {
    title: "newsletterUnsubscribe.failedTitle",
    message: "newsletterUnsubscribe.failedMessage",
    eyebrow: "newsletterUnsubscribe.failedEyebrow",
  },
} as const;

/**
 * The articles: content/<locale>/insights/*.md. Authors are the leadership of the about page
 * (`leadership.<id>`), tags the ids of tags.yaml. `cover` is an image file relative to the article
 * (the covers both languages share are in content/images/insights/); `coverAlt` describes it when it
 * shows something a reader needs, else the cover is decoration beside the title and its alt text is empty.
 */
const insights: CollectionDefinition = {
  name: "insights",
  schema: {
    title: { type: "text", required: true },
    description: { type: "text", required: true },
    // One sentence of the body, word for word, that pages may quote beside the topics it speaks to.
    pullQuote: { type: "text" },
    date: { type: "date", required: true },
    updated: { type: "date" },
    author: { type: "reference", to: "leadership", key: "name", required: true },
    tags: { type: "references", to: "tags", required: true },
    cover: { type: "image" },
    coverAlt: { type: "text" },
    draft: { type: "boolean" },
    translationKey: { type: "text" },
  },
  // The article's text column: 46rem beside the aside from 64rem, the whole width less the gutters below.
  bodyImageSizes: "(min-width: 64rem) 46rem, calc(100vw - 2rem)",
  feed: { title: "insights.feed.title", description: "insights.feed.description", limit: 20, listRoute: "insights" },
  author: { name: "leadership.{id}.name", jobTitle: "leadership.{id}.title", url: "about" },
};

/**
 * The cases: content/<locale>/cases/*.md, one project each, written by the firm with its client's permission
 * (docs/firm-facts.md). The client is described, never named; `sector` and `service` are the ids of
 * industries.yaml and services.yaml; each result is a figure, what it is and what was measured. None is
 * committed: the firm supplies them, and a sector or a service line shows its cases only when it has any.
 */
const text = (required = true) => ({ type: "text" as const, required });
const cases: CollectionDefinition = {
  name: "cases",
  schema: {
    title: text(),
    description: text(),
    date: { type: "date", required: true },
    sector: { type: "reference", to: "industries", key: "name", required: true },
    service: { type: "reference", to: "services", key: "name", required: true },
    client: text(),
    challenge: text(),
    approach: text(),
    team: text(),
    duration: text(),
    ...Object.fromEntries(
      [1, 2, 3, 4].flatMap((i) => [`Value`, `Label`, `Context`].map((part) => [`result${i}${part}`, text(i === 1)])),
    ),
    draft: { type: "boolean" },
    translationKey: text(false),
  },
};

export default defineSite({
  document: Document,
  routes,
  collections: [insights, cases],
  // A person of the about page may have a photo (`photo:` beside `name:`, relative to the YAML file);
  // without one the page shows their initials.
  imageKeys: ["leadership.*.photo", "advisors.*.photo"],
  notFound: {
    page: page(NotFoundPage),
    meta: { title: "meta.not-found.title", description: "meta.not-found.description" },
  },
  error: {
    page: page(ErrorPage),
    props: { status: 500 },
    meta: { title: "meta.error.title", description: "meta.error.description" },
  },
  unlisted: Object.entries(FORM_RESULTS).map(([result, keys]) => ({
    id: `forms.${result}`,
    path: `/forms/${result}`,
    page: page(FormResultPage),
    props: { result, ...keys },
    meta: { title: keys.title, description: keys.message },
  })),
});
