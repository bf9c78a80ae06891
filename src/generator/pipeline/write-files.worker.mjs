// The output's writing thread (staging.ts starts it): writes each file it is sent, with its folders, while the
// build's own thread renders the next pages. Plain JavaScript, so that Node runs it as it is, from the sources
// or from an installed package.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";

const folders = new Set();

parentPort.on("message", ({ path, data }) => {
  try {
    const folder = dirname(path);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writeFileSync(path, data);
    parentPort.postMessage({ path });
  } catch (error) {
    parentPort.postMessage({ path, failed: { code: error.code ?? "", message: error.message } });
  }
});
