import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EntryBodies } from "../../src/generator/entry-bodies.ts";

describe("the build's file of entry bodies", () => {
  it("gives back each body as it was added, accents and emoji included, and leaves no file behind", () => {
    const parent = mkdtempSync(join(tmpdir(), "sitegen-test-"));
    const bodies = new EntryBodies(parent);
    // Removed from its folder as soon as it is made: a build that is killed leaves nothing there.
    expect(readdirSync(parent)).toEqual([]);
    const texts = ["Transformação com IA: governança e ação.", "", "Plain English.", "Ações 🚀", "x".repeat(70_000)];
    const places = texts.map((text) => bodies.add(text));
    expect(places.map((place) => bodies.read(place)).reverse()).toEqual([...texts].reverse());
    expect(places[1]).toEqual({ offset: places[0].length, length: 0 });
    bodies.close();
    expect(readdirSync(parent)).toEqual([]);
  });
});
