/**
 * One illustration per sector, drawn from its own subject: what the sector's work looks like, and where the
 * AI the page describes sits in it (the teal strokes). 480 by 400 units, on the navy hero.
 */
import { C, P, R, gear, line } from "./parts.tsx";

/** A bank's portico beside a card, the payments between them, and the one the model flags, shielded. */
export function FinancialServices() {
  return (
    <>
      <P ink="panel" d="M52 150L146 102L240 150Z" />
      <R x={60} y={154} w={172} h={14} r={3} ink="line" />
      {[76, 116, 156, 196].map((x) => (
        <R key={x} x={x} y={174} w={18} h={92} r={3} ink="line" />
      ))}
      <R x={50} y={270} w={192} h={14} r={3} ink="line" />
      <R x={40} y={288} w={212} h={14} r={3} ink="panel" />
      <R x={274} y={212} w={180} h={114} r={14} ink="glow" />
      <R x={294} y={238} w={34} h={26} r={5} ink="accent" />
      <P d="M294 290h84M390 290h44M294 306h52" />
      <P ink="dash" d="M146 96C200 30 330 28 372 104S392 196 364 210" />
      {[
        [178, 60],
        [230, 40],
        [286, 44],
        [384, 160],
      ].map(([x, y]) => (
        <C key={x} x={x} y={y} r={6} ink="dot" />
      ))}
      <P ink="glow" d="M338 74l28 10v20c0 18-13 30-28 35c-15-5-28-17-28-35v-20z" />
      <P ink="accent" d="M326 104l9 9l16-18" />
    </>
  );
}

/** A transmission tower and a wind turbine over the land, solar panels, and the forecast above them. */
export function Energy() {
  const blade = "M0 0L-7 -78Q0 -90 7 -78Z";
  return (
    <>
      <P d="M24 340H456" />
      <P d={`${line([96, 340], [130, 120], [150, 70], [170, 120], [204, 340])}M130 120H170`} />
      <P
        d={
          "M84 150H216M96 196H204M106 236L194 278M194 236L106 278" +
          "M112 196L188 236M188 196L112 236M124 150L176 196M176 150L124 196"
        }
      />
      <P d="M88 150v12M212 150v12M100 196v12M200 196v12" />
      <P ink="line" d="M88 162Q270 214 456 176M212 162Q330 200 456 196" />
      <P d="M326 340L331 178L336 340" />
      <g transform="translate(331 174)">
        {[0, 120, 240].map((a) => (
          <path key={a} className="il-panel" d={blade} transform={`rotate(${a})`} />
        ))}
      </g>
      <C x={331} y={174} r={7} ink="solid" />
      <P ink="panel" d="M372 330H452L438 290H358Z" />
      <P d="M378 310H446M398 290L392 330M418 290L416 330" />
      <P ink="accent" d="M40 96C100 70 150 112 210 88S320 44 380 66" />
      <P ink="dash" d="M380 66C410 76 430 60 456 52" />
      {[
        [40, 96],
        [210, 88],
        [380, 66],
      ].map(([x, y]) => (
        <C key={x} x={x} y={y} r={5} ink="solid" />
      ))}
    </>
  );
}

/** A shelf of products, a shopping bag, and the demand curve the stock follows. */
export function Retail() {
  const shelf = [
    [64, 96, 34, 58],
    [106, 118, 30, 36],
    [144, 104, 40, 50],
    [192, 124, 28, 30],
    [64, 186, 46, 42],
    [118, 170, 30, 58],
    [156, 190, 54, 38],
    [64, 258, 30, 44],
    [102, 248, 44, 54],
    [154, 266, 56, 36],
  ];
  return (
    <>
      <R x={48} y={80} w={184} h={240} r={8} ink="panel" />
      <P d="M48 154H232M48 228H232M48 302H232" />
      {shelf.map(([x, y, w, h], i) => (
        <R key={i} x={x} y={y} w={w} h={h} r={4} ink={i === 5 ? "glow" : "line"} />
      ))}
      <P ink="panel" d="M300 214H424L410 346H314Z" />
      <P d="M336 214C336 168 388 168 388 214" />
      <P d="M290 150V60M290 150H450" />
      {[0, 1, 2, 3, 4].map((i) => (
        <R
          key={i}
          x={302 + i * 28}
          y={150 - [34, 50, 42, 64, 58][i]}
          w={16}
          h={[34, 50, 42, 64, 58][i]}
          r={3}
          ink="line"
        />
      ))}
      <P ink="accent" d="M310 104L338 90L366 100L394 76L422 84" />
      <P ink="dash" d="M422 84L450 66" />
      <C x={422} y={84} r={5} ink="solid" />
    </>
  );
}

/** Rows of crops running to the horizon, a satellite reading one plot of them, and the sun. */
export function Agriculture() {
  const rows = [0, 80, 160, 240, 320, 400, 480].map((x, i) => `M${x} 400L${232 + i * 3} 224`).join("");
  return (
    <>
      <C x={92} y={96} r={30} />
      <P d="M20 226Q240 210 460 226" />
      <P d={rows} />
      <P ink="glow" d="M300 400L268 300L300 300L360 400Z" />
      <P ink="dash" d="M384 104L268 300M384 104L300 300" />
      <R x={366} y={74} w={36} h={28} r={4} ink="solid" />
      <R x={314} y={80} w={44} h={16} r={3} ink="panel" />
      <R x={410} y={80} w={44} h={16} r={3} ink="panel" />
      <P d="M358 88h8M402 88h8" />
      {[
        [120, 340],
        [180, 300],
        [330, 346],
        [316, 312],
      ].map(([x, y]) => (
        <P key={x} ink="accent" d={`M${x} ${y}v-16M${x} ${y - 8}q-10 -2 -12 -12M${x} ${y - 10}q10 -2 12 -12`} />
      ))}
    </>
  );
}

/** An open book under a graduation cap, and a tutor's conversation beside it. */
export function Education() {
  return (
    <>
      <P ink="panel" d="M240 316Q176 288 84 300V164Q176 150 240 180Z" />
      <P ink="panel" d="M240 316Q304 288 396 300V164Q304 150 240 180Z" />
      <P
        d={
          "M110 196Q170 186 218 204M110 220Q170 210 218 228M110 244Q170 234 218 252" +
          "M262 204Q310 186 370 196M262 228Q310 210 370 220"
        }
      />
      <P ink="accent" d="M262 252Q310 234 370 244" />
      <P ink="glow" d="M240 48L334 84L240 120L146 84Z" />
      <P d="M188 104V136Q240 160 292 136V104" />
      <P ink="accent" d="M334 84V128" />
      <C x={334} y={134} r={6} ink="solid" />
      <P
        ink="panel"
        d={
          "M356 176h88a12 12 0 0 1 12 12v44a12 12 0 0 1-12 12h-54l-18 16v-16h-16" +
          "a12 12 0 0 1-12-12v-44a12 12 0 0 1 12-12z"
        }
      />
      {[378, 400, 422].map((x) => (
        <C key={x} x={x} y={210} r={5} ink="solid" />
      ))}
    </>
  );
}

/** A stack of contracts, the clause found in them under a magnifier, and each checked line. */
export function Professional() {
  return (
    <>
      <R x={120} y={56} w={200} h={260} r={10} ink="panel" />
      <R x={96} y={80} w={200} h={260} r={10} ink="panel" />
      <R x={72} y={104} w={200} h={260} r={10} ink="panel" />
      <P d="M98 136h120M98 168h128M98 196h128M98 224h100M98 280h148M98 308h120" />
      <P ink="accent" d="M98 252h148" />
      {[168, 196, 224].map((y) => (
        <P key={y} ink="accent" d={`M240 ${y - 2}l5 5l9 -10`} />
      ))}
      <C x={318} y={226} r={56} ink="glow" />
      <P ink="accent" d="M358 266L424 332" />
      <P d="M290 214h56M290 234h40" />
      <P d="M362 110h76M362 130h52" />
      <P ink="dash" d="M362 150h76" />
    </>
  );
}

/** A conveyor of parts, the camera that inspects them, the part it flags, and the gears of the line. */
export function Manufacturing() {
  return (
    <>
      <path className="il-panel" d={gear(112, 118, 42, 10)} />
      <C x={112} y={118} r={14} />
      <path className="il-line" d={gear(182, 76, 24, 8, 6)} />
      <R x={36} y={292} w={408} h={34} r={17} ink="line" />
      {[62, 122, 182, 242, 302, 362, 418].map((x) => (
        <C key={x} x={x} y={309} r={8} ink="dot" />
      ))}
      {[70, 170, 370].map((x) => (
        <R key={x} x={x} y={240} w={54} h={48} r={5} ink="panel" />
      ))}
      <R x={266} y={240} w={54} h={48} r={5} ink="glow" />
      <P ink="accent" d="M256 238v-12h12M330 238v-12h-12M256 290v12h12M330 290v12h-12" />
      <P ink="dash" d="M280 126L252 226M306 126L334 226" />
      <R x={262} y={84} w={62} h={40} r={6} ink="panel" />
      <C x={293} y={104} r={10} ink="accent" />
      <P d="M293 84V44M293 44H420" />
    </>
  );
}

/** A monitor's heart trace, a medical cross, and the molecule the research screens. */
export function Healthcare() {
  return (
    <>
      <R x={44} y={100} w={300} h={196} r={14} ink="panel" />
      <P d="M194 296v36M148 332h92" />
      <P d="M44 160H344" />
      <P ink="accent" d="M64 232H146l14-42l20 92l20-126l16 76H324" />
      <P ink="glow" d="M384 62h28v28h28v28h-28v28h-28v-28h-28v-28h28z" />
      {[
        [390, 246],
        [428, 268],
        [428, 312],
        [390, 334],
        [352, 312],
        [352, 268],
      ].map(([x, y], i, all) => {
        const [nx, ny] = all[(i + 1) % all.length];
        return <P key={i} d={`M${x} ${y}L${nx} ${ny}`} />;
      })}
      <P d="M428 268L460 248M352 312L330 336" />
      {[
        [390, 246],
        [428, 312],
        [352, 312],
      ].map(([x, y]) => (
        <C key={x} x={x} y={y} r={7} ink="solid" />
      ))}
      <C x={460} y={248} r={6} ink="dot" />
    </>
  );
}

/** The sector drawings by content key (industries.<key>). */
export const SECTOR_ART = {
  financialServices: FinancialServices,
  energy: Energy,
  retail: Retail,
  agriculture: Agriculture,
  education: Education,
  professional: Professional,
  manufacturing: Manufacturing,
  healthcare: Healthcare,
} as const;
