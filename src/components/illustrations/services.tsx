/**
 * One illustration per service line, from what the line does (a roadmap, a system being built, a system
 * being run), and the services overview, where the three meet as one journey. 480 by 400 units.
 */
import { C, P, R } from "./parts.tsx";

/** A compass over a road with its milestones: strategy, priorities, the next decision. */
export function Advisory() {
  const flags = [
    [118, 318],
    [236, 236],
    [380, 132],
  ];
  return (
    <>
      <P ink="road" d="M30 372C150 372 120 262 236 252S350 150 450 118" />
      <P ink="dash" d="M30 372C150 372 120 262 236 252S350 150 450 118" />
      {flags.map(([x, y], i) => (
        <g key={x}>
          <P ink="accent" d={`M${x} ${y}V${y - 64}`} />
          <P ink={i === flags.length - 1 ? "solid" : "glow"} d={`M${x} ${y - 64}h40l-10 14l10 14h-40z`} />
        </g>
      ))}
      <C x={100} y={108} r={58} ink="panel" />
      <C x={100} y={108} r={44} />
      <P d="M100 50v10M100 156v10M42 108h10M148 108h10" />
      <P ink="solid" d="M100 108l26 -34l-12 40z" />
      <P ink="glow" d="M100 108l-26 34l12 -40z" />
    </>
  );
}

/** Data stores feeding a model and the application it runs in, on one integration layer. */
export function Implementation() {
  const cylinder = (x: number, y: number) => `M${x} ${y}a34 11 0 0 0 68 0a34 11 0 0 0 -68 0v56a34 11 0 0 0 68 0v-56`;
  const nodes = [
    [196, 150],
    [196, 200],
    [196, 250],
    [240, 175],
    [240, 225],
    [284, 200],
  ];
  return (
    <>
      <P ink="panel" d={cylinder(36, 112)} />
      <P ink="panel" d={cylinder(36, 222)} />
      <P ink="dash" d="M108 140C140 140 150 170 172 176M108 250C140 250 150 226 172 222" />
      <R x={170} y={120} w={140} h={160} r={16} ink="glow" />
      {nodes.map(([x, y], i) =>
        nodes
          .slice(i + 1)
          .filter(([nx]) => nx - x === 44)
          .map(([nx, ny]) => <P key={`${i}-${nx}-${ny}`} d={`M${x} ${y}L${nx} ${ny}`} />),
      )}
      {nodes.map(([x, y]) => (
        <C key={`${x}-${y}`} x={x} y={y} r={7} ink="solid" />
      ))}
      <P ink="dash" d="M310 200H340" />
      <R x={340} y={110} w={116} h={180} r={12} ink="panel" />
      <P d="M340 136H456" />
      {[354, 366, 378].map((x) => (
        <C key={x} x={x} y={123} r={3} ink="dot" />
      ))}
      <P d="M356 160h60M356 178h80" />
      <P ink="accent" d="M356 260l22 -22l18 12l24 -34l18 10" />
      <R x={36} y={320} w={420} h={36} r={8} ink="panel" />
      <P d="M60 338h60M150 338h90M270 338h60M360 338h72" />
    </>
  );
}

/** An operations dashboard: the service level, its threshold, a gauge and each system's status. */
export function Managed() {
  return (
    <>
      <R x={40} y={64} w={400} h={272} r={16} ink="panel" />
      <P d="M40 100H440" />
      {[60, 74, 88].map((x) => (
        <C key={x} x={x} y={82} r={4} ink="dot" />
      ))}
      <P d="M68 286H300M68 130V286" />
      <P ink="dash" d="M68 166H300" />
      <P ink="accent" d="M68 190L104 182L140 196L176 178L212 186L248 172L284 184L300 178" />
      <P d="M330 230a56 56 0 0 1 112 0" />
      <P ink="accent" d="M330 230a56 56 0 0 1 88 -46" />
      <P ink="solid" d="M386 230l30 -36l-22 42z" />
      {[0, 1, 2, 3].map((i) => (
        <g key={i}>
          <C x={344 + i * 26} y={282} r={8} ink={i === 2 ? "glow" : "solid"} />
        </g>
      ))}
      <P d="M68 312h90M180 312h60" />
    </>
  );
}

/** The services overview: the three lines' marks as stations of one journey, from decision to operation. */
export function ServicesJourney() {
  const stations = [
    [96, 250],
    [240, 170],
    [384, 250],
  ];
  return (
    <>
      <P ink="road" d="M24 330C70 300 60 262 96 250S200 190 240 170S340 226 384 250S440 300 456 330" />
      {stations.map(([x, y]) => (
        <C key={x} x={x} y={y} r={54} ink="panel" />
      ))}
      <C x={96} y={250} r={30} />
      <P ink="solid" d="M96 250l16 -22l-6 26z" />
      <P ink="glow" d="M96 250l-16 22l6 -26z" />
      <R x={214} y={146} w={24} h={24} r={4} ink="glow" />
      <R x={242} y={146} w={24} h={24} r={4} ink="line" />
      <R x={214} y={174} w={52} h={20} r={4} ink="line" />
      <P ink="accent" d="M350 254h14l8 -18l14 34l10 -16h18" />
      <P ink="dash" d="M150 232L188 196M292 196L330 232" />
      <C x={240} y={80} r={6} ink="solid" />
      <P ink="dash" d="M240 86V116" />
    </>
  );
}

export const SERVICE_ART = { advisory: Advisory, implementation: Implementation, managed: Managed } as const;
