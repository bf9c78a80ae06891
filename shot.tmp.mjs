import { chromium } from "@playwright/test";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run"] });
const [,, url, out, w="1280"] = process.argv;
const p = await b.newPage({ viewport: { width: Number(w), height: 900 } });
p.on("console", m => console.log("console:", m.text()));
await p.goto(url);
await p.screenshot({ path: out, fullPage: true });
await b.close();
