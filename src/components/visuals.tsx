/**
 * The outcome charts: drawn at build time as inline SVG in the brand's colours, decorative (aria-hidden):
 * the figure beside each says everything it shows. Colours come from CSS classes (proof.css).
 */

/**
 * A small chart beside an outcome figure. "fall" and "rise" compare the baseline (100) with the result
 * (100 minus or plus the figure); "share" fills a bar to the figure out of 100. Figures that compare
 * speeds ("50% faster") get no chart: a bar would have to pick between time and rate, and the text says it.
 */
export function OutcomeChart({
  kind,
  value,
  before,
  after: afterLabel,
}: {
  kind: string;
  value: number;
  before: string;
  after: string;
}) {
  if (!Number.isFinite(value) || !["fall", "rise", "share"].includes(kind)) return null;
  if (kind === "share") {
    return (
      <svg className="outcome-chart" viewBox="0 0 200 28" aria-hidden="true" focusable="false">
        <rect className="oc-track" x="0" y="8" width="200" height="12" rx="6" />
        <rect className="oc-value" x="0" y="8" width={2 * Math.min(value, 100)} height="12" rx="6" />
      </svg>
    );
  }
  const after = kind === "fall" ? 100 - value : 100 + value;
  const scale = 140 / Math.max(100, after);
  return (
    <svg className="outcome-chart" viewBox="0 0 200 44" aria-hidden="true" focusable="false">
      <text x="0" y="15">
        {before}
      </text>
      <rect className="oc-track" x="60" y="4" width={100 * scale} height="14" rx="4" />
      <text x="0" y="37">
        {afterLabel}
      </text>
      <rect className="oc-value" x="60" y="26" width={after * scale} height="14" rx="4" />
    </svg>
  );
}
