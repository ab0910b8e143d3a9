// Opens HTML pages of a built site at a phone's size and reports the pages
// wider than the viewport (a page that scrolls sideways).
//
//   node widths.mjs --chromium PATH --dist DIR --width 390 [--axe] -- PAGE...
//
// With --axe, also runs axe-core (WCAG 2 A and AA rules) on each page.
// Prints { "checked": N, "wider": [{ "page", "width" }], "axe": [{ "page", "id", "nodes" }] }.
import { chromium } from "playwright-core";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name) => args[args.indexOf(name) + 1];
const dist = option("--dist");
const width = Number(option("--width"));

const browser = await chromium.launch({
  executablePath: option("--chromium"),
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const pages = args.slice(args.indexOf("--") + 1);
const wider = [];
const violations = [];
const axePath = args.includes("--axe") ? createRequire(import.meta.url).resolve("axe-core/axe.min.js") : null;
// Two tabs share the work; each page is laid out with its stylesheet.
const tabs = await Promise.all([0, 1].map(async () => {
  const context = await browser.newContext({ viewport: { width, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  return context.newPage();
}));
let next = 0;
await Promise.all(tabs.map(async (tab) => {
  while (next < pages.length) {
    const name = pages[next++];
    await tab.goto(pathToFileURL(join(dist, name)).href, { waitUntil: "load" });
    const scrolled = await tab.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    if (scrolled > width) wider.push({ page: name, width: scrolled });
    if (axePath) {
      await tab.addScriptTag({ path: axePath });
      const found = await tab.evaluate(async () => {
        const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] });
        return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.length }));
      });
      for (const v of found) violations.push({ page: name, ...v });
    }
  }
}));
await browser.close();
console.log(JSON.stringify({ checked: pages.length, wider, axe: violations }));
