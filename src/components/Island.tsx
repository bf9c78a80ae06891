import type { ComponentType } from "react";
import { usePage } from "./page-context.tsx";

export type HydrateWhen = "load" | "idle" | "visible" | "interaction" | "manual";

/**
 * Server-renders an island inside a marker the browser runtime finds: the island's module URL (decided
 * at build time), when to hydrate it, and its props as JSON (React escapes the attribute). The page is
 * complete without JavaScript; the runtime only adds behaviour.
 */
export function Island<P extends object>({
  name,
  when,
  component: Component,
  props,
}: {
  name: string;
  when: HydrateWhen;
  component: ComponentType<P>;
  props: P;
}) {
  const { islands } = usePage();
  return (
    <div
      className="island"
      data-island={name}
      data-when={when}
      data-src={islands[name]}
      data-props={JSON.stringify(props)}
    >
      <Component {...props} />
    </div>
  );
}
