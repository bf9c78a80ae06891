import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import LucideLayers from "lucide-react/icons/layers";
import LucideMail from "lucide-react/icons/mail";
import LucideWorkflow from "lucide-react/icons/workflow";
import { Mail, sectorIcons, serviceLineIcons, technologyIcons } from "../../src/components/icons.tsx";

// Our icon component renders lucide's drawings itself (faster than lucide's component): the markup
// must stay exactly what lucide-react renders for the same icon with the props the pages pass.
describe("icons", () => {
  it("render the same SVG as lucide-react, former names (aliases) included", () => {
    const pairs = [
      [technologyIcons.memoryRag, LucideLayers, { size: 28, className: "card-icon" }],
      [technologyIcons.orchestration, LucideWorkflow, { size: 18 }],
      [Mail, LucideMail, { size: 16 }],
    ] as const;
    for (const [ours, lucide, props] of pairs) {
      const expected = renderToStaticMarkup(createElement(lucide, { ...props, "aria-hidden": "true" }));
      expect(renderToStaticMarkup(createElement(ours, props))).toBe(expected);
    }
    expect(renderToStaticMarkup(createElement(technologyIcons.memoryRag, {}))).toContain('class="lucide lucide-layers lucide-layers-3"');
  });

  it("are decoration: hidden from assistive technology, 24 px unless sized", () => {
    for (const icon of [...Object.values(technologyIcons), ...Object.values(sectorIcons), ...Object.values(serviceLineIcons)]) {
      const svg = renderToStaticMarkup(createElement(icon, {}));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="24" height="24" viewBox="0 0 24 24"/);
      expect(svg).toContain('aria-hidden="true"');
      expect(svg).toMatch(/<(path|rect|circle|ellipse|line|polyline|polygon)\b/);
    }
  });
});
