/**
 * The pieces every illustration is drawn with: one frame (the <svg>, decorative and hidden from assistive
 * technology) and five strokes and fills named by their role, coloured by visuals.css for the band they sit
 * on (navy heroes, or a light page for the quiet ones). Drawn at build time: no file, no script, no request.
 */
import type { ReactNode } from "react";

export type Ink = "line" | "panel" | "accent" | "glow" | "solid" | "dash" | "dot" | "road";

/** A path in one of the inks. */
export function P({ d, ink = "line" }: { d: string; ink?: Ink }) {
  return <path className={`il-${ink}`} d={d} />;
}

export function C({ x, y, r, ink = "line" }: { x: number; y: number; r: number; ink?: Ink }) {
  return <circle className={`il-${ink}`} cx={x} cy={y} r={r} />;
}

export function R({
  x,
  y,
  w,
  h,
  r = 10,
  ink = "panel",
}: {
  x: number;
  y: number;
  w: number;
  h: number;
  r?: number;
  ink?: Ink;
}) {
  return <rect className={`il-${ink}`} x={x} y={y} width={w} height={h} rx={r} />;
}

/** The frame: 480 by 400 units for a hero, `quiet` for the small light visuals of the error and result pages. */
export function Frame({ name, quiet = false, children }: { name: string; quiet?: boolean; children: ReactNode }) {
  return (
    <svg
      className={`illustration${quiet ? " illustration-quiet" : ""}`}
      data-art={name}
      viewBox={quiet ? "0 0 200 160" : "0 0 480 400"}
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The outline of a gear of `teeth` teeth around (cx, cy): a closed path, its teeth squared off. */
export function gear(cx: number, cy: number, r: number, teeth: number, depth = 8): string {
  const points: string[] = [];
  const step = (2 * Math.PI) / teeth;
  for (let i = 0; i < teeth; i++) {
    const a = i * step;
    for (const [offset, radius] of [
      [-0.28, r],
      [-0.18, r + depth],
      [0.18, r + depth],
      [0.28, r],
    ] as const) {
      const angle = a + offset * step * 1.6;
      points.push(`${round(cx + radius * Math.cos(angle))} ${round(cy + radius * Math.sin(angle))}`);
    }
  }
  return `M${points.join("L")}Z`;
}

/** A polyline through points given as [x, y] pairs. */
export const line = (...points: [number, number][]) => `M${points.map(([x, y]) => `${x} ${y}`).join("L")}`;
