// Opens a term's page in Chromium and reports its logical description as
// a person sees it: each axiom's keyword, its text, and its links with the
// heading of the page each one leads to.
//
//   node expressions.mjs --chromium PATH --page FILE
//
// Prints { "axioms": [{ "keyword", "text", "links": [{ "text", "heading" }] }] }.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name) => args[args.indexOf(name) + 1];
const browser = await chromium.launch({
  executablePath: option("--chromium"),
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const tab = await browser.newPage();
await tab.goto(pathToFileURL(option("--page")).href, { waitUntil: "load" });
const axioms = await tab.evaluate(() => {
  const list = document.querySelector("dl.manchester");
  if (!list) return [];
  return [...list.querySelectorAll("dt")].map((dt) => {
    const dd = dt.nextElementSibling;
    return {
      keyword: dt.innerText.trim(),
      text: dd.innerText.trim(),
      links: [...dd.querySelectorAll("a")].map((a) => ({ text: a.innerText.trim(), href: a.href })),
    };
  });
});
// Each link is followed, as a click would, to the page it names.
for (const axiom of axioms) {
  for (const link of axiom.links) {
    await tab.goto(link.href, { waitUntil: "load" });
    link.heading = await tab.evaluate(() => document.querySelector("h1")?.innerText.trim() ?? null);
    delete link.href;
  }
}
await browser.close();
console.log(JSON.stringify({ axioms }));
