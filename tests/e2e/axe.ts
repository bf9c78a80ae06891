import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe's violations on the page as it stands, one line each: the rule and the elements. Legacy mode runs axe
 * in the page itself instead of gathering every frame's results in a new blank page, which takes about half
 * the time; all it gives up is testing cross-origin frames, and the site's pages have no frames at all.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
