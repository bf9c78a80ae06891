/**
 * The illustrations of the other kinds of page, each from what the page is about: the home page's pilot
 * becoming a system in production, the technologies' interchangeable modules, the sectors' skyline, the
 * firm's city, the articles, the measured results, the conversation. 480 by 400 units.
 */
import { C, P, R } from "./parts.tsx";

/** A pilot (dashed, small) grows into a system in production: data, model and application, live. */
export function Home() {
  return (
    <>
      <R x={28} y={206} w={116} h={92} r={12} ink="dash" />
      {[0, 1, 2].map((i) => (
        <R key={i} x={48 + i * 26} y={270 - [20, 34, 28][i]} w={16} h={[20, 34, 28][i]} r={3} ink="line" />
      ))}
      <P ink="dash" d="M144 252C190 252 184 200 226 196" />
      <C x={226} y={196} r={6} ink="solid" />
      <P ink="panel" d="M236 300L352 344L460 300L344 256Z" />
      <P ink="panel" d="M236 236L352 280L460 236L344 192Z" />
      <P ink="glow" d="M236 172L352 216L460 172L344 128Z" />
      <P d="M236 300V314L352 358L460 314V300M236 236V250M460 236V250" />
      <P d="M300 300l44 16M312 286l60 22M396 300l-30 12" />
      <C x={318} y={232} r={7} ink="solid" />
      <C x={352} y={246} r={7} ink="solid" />
      <C x={386} y={230} r={7} ink="solid" />
      <P d="M318 232L352 246L386 230" />
      <P ink="accent" d="M282 174l36 -14l30 10l36 -28l36 6" />
      <C x={420} y={148} r={6} ink="solid" />
      <P ink="dash" d="M344 128V64M344 64h90" />
      <C x={440} y={64} r={8} ink="glow" />
    </>
  );
}

/** Layers of a solution as rows of modules, one of them lifted out to be swapped for another. */
export function Technologies() {
  const rows = [
    [300, [112, 96, 128]],
    [234, [86, 150, 100]],
    [168, [140, 92, 104]],
  ] as const;
  return (
    <>
      {rows.map(([y, widths]) => {
        let x = 40;
        return widths.map((w, i) => {
          const at = x;
          x += w + 12;
          const lifted = y === 234 && i === 1;
          return (
            <R
              key={`${y}-${i}`}
              x={at}
              y={y}
              w={w}
              h={52}
              r={10}
              ink={lifted ? "dash" : i === 0 && y === 168 ? "glow" : "panel"}
            />
          );
        });
      })}
      <R x={170} y={58} w={150} h={52} r={10} ink="glow" />
      <P ink="accent" d="M192 84h60M192 96h36" />
      <P ink="dash" d="M245 118V226" />
      <P ink="accent" d="M233 214l12 12l12 -12" />
      <R x={40} y={366} w={368} h={14} r={7} ink="line" />
      {[66, 208, 330].map((x) => (
        <C key={x} x={x} y={194} r={5} ink="dot" />
      ))}
    </>
  );
}

/** The skyline of the sectors: a bank, a factory, a tower, a store, a hospital, a school and a field. */
export function Industries() {
  return (
    <>
      <P d="M16 320H464" />
      <P ink="panel" d="M28 320V208L70 186L112 208V320Z" />
      <P d="M44 232V300M62 232V300M80 232V300M98 232V300" />
      <P ink="panel" d="M124 320V226L158 206V226L192 206V226L226 206V320Z" />
      <R x={200} y={150} w={16} h={56} r={2} ink="line" />
      <P d="M142 258h20M174 258h20M142 288h20M174 288h20" />
      <P d={"M256 320L270 150L284 320M262 220H278M258 280H282M264 190L278 220M276 190L262 220"} />
      <P ink="panel" d="M298 320V246H366V320Z" />
      <P ink="glow" d="M292 246L304 226H360L372 246Z" />
      <R x={318} y={280} w={28} h={40} r={2} ink="line" />
      <P ink="panel" d="M382 320V196H446V320Z" />
      <P ink="solid" d="M408 212h12v12h12v12h-12v12h-12v-12h-12v-12h12z" />
      <P d="M396 276h14M418 276h14M396 300h14M418 300h14" />
      <P d="M16 350Q240 330 464 350M16 376Q240 356 464 376" />
      <P ink="accent" d="M40 120C110 92 180 132 250 104S390 70 440 90" />
      {[
        [40, 120],
        [250, 104],
        [440, 90],
      ].map(([x, y]) => (
        <C key={x} x={x} y={y} r={5} ink="solid" />
      ))}
    </>
  );
}

/** The firm's city: São Paulo's towers, the tallest with its mast, and the avenue below. */
export function About() {
  const towers = [
    [28, 220, 48],
    [84, 176, 40],
    [132, 240, 56],
    [256, 196, 44],
    [308, 150, 52],
    [368, 232, 40],
    [416, 188, 44],
  ];
  return (
    <>
      <C x={392} y={78} r={28} />
      {towers.map(([x, y, w]) => (
        <R key={x} x={x} y={y} w={w} h={330 - y} r={3} ink="panel" />
      ))}
      <P ink="glow" d="M196 330V170H240V330ZM202 170V142H234V170ZM208 142V118H228V142Z" />
      <P ink="accent" d="M218 118V64" />
      <C x={218} y={62} r={5} ink="solid" />
      {towers.flatMap(([x, y, w]) =>
        Array.from({ length: Math.floor((310 - y) / 26) }, (_, i) => (
          <P key={`${x}-${i}`} d={`M${x + 10} ${y + 18 + i * 26}h${w - 20}`} />
        )),
      )}
      <P d="M16 330H464" />
      <P ink="dash" d="M16 358H464" />
      <P d="M16 384H464" />
    </>
  );
}

/** Pages of analysis, the newest on top: a title, its lines, a chart and the sentence that matters. */
export function Insights() {
  return (
    <>
      <R x={176} y={40} w={220} h={290} r={14} ink="panel" />
      <R x={140} y={66} w={220} h={290} r={14} ink="panel" />
      <R x={104} y={92} w={220} h={290} r={14} ink="glow" />
      <P d="M130 130h120M130 152h168" />
      <P d="M130 186h168M130 206h168M130 226h120" />
      <R x={130} y={250} w={168} h={70} r={8} ink="line" />
      {[0, 1, 2, 3].map((i) => (
        <R key={i} x={146 + i * 38} y={306 - [18, 30, 24, 42][i]} w={18} h={[18, 30, 24, 42][i]} r={3} ink="solid" />
      ))}
      <P ink="accent" d="M130 346h140" />
      <P ink="dash" d="M410 120h50M410 150h36" />
    </>
  );
}

/** A baseline, and the figures measured against it: before in grey, after in teal, one bracket measured. */
export function Results() {
  const pairs = [
    [70, 170, 96],
    [196, 150, 204],
    [322, 190, 120],
  ];
  return (
    <>
      <P d="M40 330H450" />
      {pairs.map(([x, before, after], i) => (
        <g key={x}>
          <R x={x} y={330 - before} w={40} h={before} r={6} ink="panel" />
          <R x={x + 48} y={330 - after} w={40} h={after} r={6} ink={i === 1 ? "solid" : "glow"} />
        </g>
      ))}
      <P ink="dash" d="M40 160H450" />
      <P ink="accent" d="M300 126v54M294 126h12M294 180h12" />
    </>
  );
}

/** A question, an answer, and the call it leads to on the calendar. */
export function Contact() {
  return (
    <>
      <P
        ink="panel"
        d="M50 70h220a16 16 0 0 1 16 16v88a16 16 0 0 1-16 16H124l-38 32v-32H50a16 16 0 0 1-16-16v-88a16 16 0 0 1 16-16z"
      />
      <P d="M62 110h170M62 142h112" />
      <P
        ink="glow"
        d={
          "M430 186H214a16 16 0 0 0-16 16v72a16 16 0 0 0 16 16h150l38 28v-28h28" +
          "a16 16 0 0 0 16-16v-72a16 16 0 0 0-16-16z"
        }
      />
      <P ink="accent" d="M230 226h150M230 254h96" />
      <R x={300} y={36} w={126} h={112} r={12} ink="panel" />
      <P d="M300 70H426M330 28v16M396 28v16" />
      {[0, 1, 2].flatMap((row) =>
        [0, 1, 2, 3].map((col) => (
          <C
            key={`${row}-${col}`}
            x={322 + col * 28}
            y={92 + row * 20}
            r={4}
            ink={row === 1 && col === 2 ? "solid" : "dot"}
          />
        )),
      )}
    </>
  );
}
