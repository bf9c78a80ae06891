import type * as Esbuild from "esbuild";
import { requireLazily } from "./lazy-require.ts";

/**
 * esbuild's JavaScript API runs its Go binary as a service process, and Go's garbage collector runs there
 * as in any long-lived program: in a first build of this site, 30-40 of the service's 100 ms of CPU, on
 * machines where it shares two cores with the build's own threads. esbuild's command line turns the
 * collector off for one-shot builds ("this speedup is not insignificant", cmd/esbuild/main.go), since the
 * process exits right after. `sitegen build` is such a build: its service starts with GOGC=off, unless
 * GOGC is set already (the user's choice wins). `sitegen serve` and the tests rebuild in one service for
 * hours and keep the collector. The service's memory for this site stays about 26 MB either way.
 */
let oneShot = false;
let started = false;

/** Called by `sitegen build` before it builds: this process ends with its build. */
export function declareOneShotBuild(): void {
  oneShot = true;
}

/** esbuild's API, its service started as the process's lifetime calls for on first use. */
export function esbuildApi(): typeof Esbuild {
  const api = requireLazily("esbuild") as typeof Esbuild;
  if (!started) {
    started = true;
    if (oneShot && process.env.GOGC === undefined) {
      // initialize() spawns the service, which takes this environment; ours is put back at once.
      process.env.GOGC = "off";
      try {
        void api.initialize({});
      } catch {
        // Already running: it keeps the collector.
      } finally {
        delete process.env.GOGC;
      }
    }
  }
  return api;
}
