import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fixtureCopy } from "./helpers.ts";

/**
 * A small shop built by the tests of collections (collection-fields, collection-order): the minimal site
 * (tests/fixtures/minimal-site) in French and English, with a collection of stained-glass pieces for sale,
 * a listing of them (`/boutique`, `/en/shop`) and a page per piece. `schema` is the collection's fields,
 * `sortBy` its order, as src/pages/routes.ts writes them; `write` adds an entry's file.
 */
export function catalogueSite(
  schema: string,
  sortBy = "",
): { root: string; write: (file: string, text: string) => void } {
  const root = fixtureCopy();
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  const config = join(root, "content", "site.yaml");
  writeFileSync(
    config,
    readFileSync(config, "utf8").replace(
      '    prefix: ""\n',
      '    prefix: ""\n  - code: en\n    lang: en\n    ogLocale: en_GB\n    prefix: /en\n',
    ),
  );
  write(
    "content/fr/shop.yaml",
    "shop:\n  heading: Nos vitraux\n" +
      "meta:\n  shop:\n    title: Boutique\n    description: Les vitraux de l'atelier, prêts à poser.\n",
  );
  write(
    "content/en/text.yaml",
    [
      "meta:",
      "  home:",
      "    title: Atelier Lumière, stained glass made to order",
      "    description: A stained-glass workshop in Lyon that restores and makes windows for churches and homes.",
      "  workshop:",
      "    title: The workshop",
      "    description: Who we are, how we work the glass, and where to find us in Lyon.",
      "  not-found:",
      "    title: Page not found",
      "    description: This address leads to no page of the workshop.",
      "  error:",
      "    title: Unexpected error",
      "    description: Something went wrong; please try again in a moment.",
      "  shop:",
      "    title: Shop",
      "    description: The workshop's stained-glass panels, ready to hang.",
      "breadcrumbs:",
      "  home: Home",
      "  atelier: The workshop",
      "home:",
      "  heading: Handmade stained glass, in Lyon",
      '  body: "{brand} restores old stained glass and makes new windows, one piece at a time."',
      "workshop:",
      "  heading: The workshop",
      "  body: Three glassmakers, one kiln, and a great deal of patience.",
      "notFound:",
      "  heading: This page does not exist",
      "shop:",
      "  heading: Our stained glass",
      "",
    ].join("\n"),
  );
  // The document shell with the page's hreflang links, which pair an entry's translations.
  const pages = join(root, "src", "pages", "pages.tsx");
  writeFileSync(
    pages,
    readFileSync(pages, "utf8").replace(
      '        <link rel="stylesheet"',
      "        {head.alternates.map((a) => (\n" +
        '          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />\n' +
        '        ))}\n        <link rel="stylesheet"',
    ),
  );
  appendFileSync(
    pages,
    [
      "",
      "/** The listing: each piece's title, its price and whether it is in stock, as the page receives them. */",
      "export function Shop() {",
      "  const { t, listing } = usePage();",
      "  return (",
      "    <>",
      '      <h1>{t("shop.heading")}</h1>',
      '      <ul className="pieces">',
      "        {listing!.entries.map((e) => (",
      "          <li key={e.slug}>",
      "            {[e.data.title, typeof e.data.price, e.data.price, typeof e.data.inStock, e.data.inStock]",
      '              .map(String).join(" ")}',
      "          </li>",
      "        ))}",
      "      </ul>",
      "    </>",
      "  );",
      "}",
      "",
      "export function Piece() {",
      "  const { entry } = usePage();",
      "  return (",
      "    <article>",
      "      <h1>{String(entry!.data.title)}</h1>",
      '      <p className="price">{typeof entry!.data.price} {String(entry!.data.price)}</p>',
      '      {entry!.images?.photo && <img src={entry!.images.photo.fallback.src} alt="" />}',
      '      {"body" in entry!.data && <p className="body">{String(entry!.data.body)}</p>}',
      "    </article>",
      "  );",
      "}",
      "",
    ].join("\n"),
  );
  const routes = join(root, "src", "pages", "routes.ts");
  writeFileSync(
    routes,
    readFileSync(routes, "utf8")
      .replace("Home, NotFound, Workshop }", "Home, NotFound, Piece, Shop, Workshop }")
      .replace(
        "  ],\n",
        [
          '    { id: "shop", path: { fr: "/boutique", en: "/shop" }, page: Shop,',
          '      list: { collection: "pieces", pageSize: 50 } },',
          '    { id: "shop.piece", path: { fr: "/boutique/:slug", en: "/shop/:slug" }, page: Piece,',
          '      entries: { collection: "pieces", listRoute: "shop" } },',
          "  ],",
          `  collections: [{ name: "pieces", schema: ${schema}${sortBy ? `, sortBy: ${sortBy}` : ""} }],`,
          "",
        ].join("\n"),
      ),
  );
  return { root, write };
}
