import { h, hydrate, render, type ComponentType } from "preact";

export type MountMode = "hydrate" | "render";
export type Mount = (element: HTMLElement, props: Record<string, unknown>, mode: MountMode) => void;

/**
 * Every island module exports `mount` built by this: hydrate the server-rendered markup in place (typed
 * text and focus survive), or render into an empty container for islands with no server markup.
 */
export function islandMount<P>(Component: ComponentType<P>): Mount {
  return (element, props, mode) => {
    const vnode = h(Component as ComponentType<Record<string, unknown>>, props);
    if (mode === "render") render(vnode, element);
    else hydrate(vnode, element);
  };
}
