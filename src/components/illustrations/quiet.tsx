/**
 * The quiet visuals of the pages a visitor lands on when something ended or went wrong: a page not found, a
 * server error, a form's result. Small line drawings on the light page (200 by 160 units), in the muted ink,
 * with one teal mark: nothing that competes with the message.
 */
import { C, P, R } from "./parts.tsx";

/** A signpost on a path that stops: the address leads nowhere here. */
export function NotFound() {
  return (
    <>
      <P ink="dash" d="M12 140Q70 120 100 132" />
      <P d="M100 150V36" />
      <P ink="panel" d="M100 46h64l14 12l-14 12h-64z" />
      <P ink="panel" d="M100 82h-60l-14 12l14 12h60z" />
      <C x={100} y={30} r={5} ink="solid" />
    </>
  );
}

/** A plug and its socket, apart: the page could not be served this time. */
export function ServerError() {
  return (
    <>
      <P d="M10 96h54M136 96h54" />
      <R x={64} y={76} w={30} h={40} r={6} ink="panel" />
      <P d="M94 86h14M94 106h14" />
      <R x={112} y={72} w={24} h={48} r={6} ink="panel" />
      <P ink="accent" d="M100 40v14M80 48l8 10M120 48l-8 10" />
    </>
  );
}

/** An envelope with a mark in its corner: sent (a check), waiting (a clock) or not sent (a cross). */
function Envelope({ mark }: { mark: "sent" | "waiting" | "failed" }) {
  return (
    <>
      <R x={30} y={44} w={116} h={80} r={8} ink="panel" />
      <P d="M30 52l58 42l58 -42" />
      <C x={148} y={118} r={22} ink="glow" />
      {mark === "sent" && <P ink="accent" d="M138 118l7 7l13 -14" />}
      {mark === "waiting" && <P ink="accent" d="M148 106v12l9 6" />}
      {mark === "failed" && <P ink="accent" d="M140 110l16 16M156 110l-16 16" />}
    </>
  );
}

export const Sent = () => <Envelope mark="sent" />;
export const Waiting = () => <Envelope mark="waiting" />;
export const Failed = () => <Envelope mark="failed" />;
