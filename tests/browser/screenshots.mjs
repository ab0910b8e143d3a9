// The README's screenshots: each kind of page, desktop and phone.
//
//   node screenshots.mjs --chromium PATH --out DIR NAME=SITE_DIR:PAGE[,PAGE...] ...
//
// For each NAME=SITE_DIR:PAGES, opens each page of the site from disk at
// 1280x900 and at a 390x844 phone, and writes NAME-STEM.png and
// NAME-STEM-phone.png into DIR (STEM: the page's path, `/` as `-`). A
// page given as `index.html?q=git` types `git` into the search box first.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const out = option("--out");
const sets = args.filter((a) => a.includes("=") && !a.startsWith("--"));
const browser = await chromium.launch({
  executablePath: option("--chromium") ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  for (const set of sets) {
    const name = set.slice(0, set.indexOf("="));
    const rest = set.slice(set.indexOf("=") + 1);
    const at = rest.lastIndexOf(":");
    const site = rest.slice(0, at);
    for (const spec of rest.slice(at + 1).split(",")) {
      const [page, query] = spec.split("?q=");
      const stem = page.replace(/\.html$/, "").replaceAll("/", "-");
      for (const [suffix, viewport] of [["", { width: 1280, height: 900 }], ["-phone", { width: 390, height: 844 }]]) {
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
        const tab = await context.newPage();
        await tab.goto(pathToFileURL(join(site, page)).href, { waitUntil: "load" });
        if (query) {
          await tab.evaluate(async (query) => {
            const input = document.getElementById("q");
            const list = document.getElementById("results");
            const done = new Promise((resolve) => new MutationObserver(() => list.dataset.query === query && resolve()).observe(list, { attributes: true }));
            input.value = query;
            input.dispatchEvent(new Event("input", { bubbles: true }));
            await done;
          }, query);
        }
        await tab.screenshot({ path: join(out, `${name}-${stem}${suffix}.png`) });
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
