// The front door in a real browser, opened from disk and from a server.
//
//   node front.mjs --chromium PATH --dist DIR --server URL [--shots DIR] -- QUERY...
//
// For each way in (file:// and http://), opens index.html, types each
// QUERY into the search box and records what the page shows (the slugs
// and the total) and how long the first results took; checks that arrow
// keys reach the results; collects page errors and what the
// Content-Security-Policy refused; runs axe-core (WCAG 2 A and AA rules) on the
// front page and an entity page; and reads the entity page's embedded
// JSON-LD. With --shots, saves screenshots there. Prints one JSON report.
import { chromium } from "playwright-core";
import { typeQuery } from "./typing.mjs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const queries = args.slice(args.indexOf("--") + 1);
const dist = option("--dist");
const shots = option("--shots");
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const browser = await chromium.launch({
  executablePath: option("--chromium") ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

const search = typeQuery;

// Evaluated, not added as a script tag: the site's Content-Security-Policy
// refuses inline scripts, which is what addScriptTag would add.
const axeSource = readFileSync(axePath, "utf8");
const axe = async (page) => {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
};

const report = {};
try {
  for (const [way, base] of [["file", pathToFileURL(dist + "/").href], ["http", option("--server")]]) {
    const page = await browser.newPage();
    const outside = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(base)) outside.push(url);
    });
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    // What the Content-Security-Policy refused: Chromium reports it as a
    // console error.
    const refused = (message) => {
      if (message.type() === "error" && message.text().includes("Content Security Policy")) errors.push(message.text());
    };
    page.on("console", refused);
    await page.goto(new URL("index.html", base).href);
    const results = [];
    // Each query typed fresh, the first one on a page that has loaded nothing yet.
    for (const query of queries) results.push(await search(page, query));
    // "More results" after the second query: the list grows by a page.
    const first = await search(page, queries[1]);
    let moreShown = null;
    if (await page.locator("#more").isVisible()) {
      await page.locator("#more").click();
      await page.waitForFunction((n) => document.querySelectorAll("#results > li").length > n, first.slugs.length);
      moreShown = await page.evaluate(() => ({
        slugs: [...document.querySelectorAll("#results a")].map((a) => a.dataset.slug),
        status: document.getElementById("search-status").textContent,
        focused: document.activeElement?.dataset?.slug ?? null,
      }));
    }
    await search(page, queries[0]);
    await page.focus("#q");
    await page.keyboard.press("ArrowDown");
    const focused = await page.evaluate(() => document.activeElement?.dataset?.slug ?? null);
    const firstSlug = results[0].slugs[0];
    if (shots && way === "http") {
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.screenshot({ path: join(shots, "front-page.png") });
    }
    // "Try it" on one entity's JSON and on a search, as a visitor sends
    // them: what each shows, to compare with the API's own answers.
    const tried = {};
    for (const id of ["get__slug__json", "get_search"]) {
      const form = page.locator(`#${id} form.try`);
      await form.locator("button").click();
      await page.waitForFunction((id) => {
        const out = document.querySelector(`#${id} .answer`);
        return out && !out.textContent.endsWith("…");
      }, id);
      tried[id] = await form.evaluate((form) => {
        const out = form.querySelector(".answer");
        const code = out.querySelector("pre code");
        return {
          head: out.querySelector("p")?.textContent ?? null,
          body: code ? code.textContent : null,
          text: out.textContent,
          inputs: Object.fromEntries([...form.querySelectorAll("input")].map((i) => [i.name, i.value])),
        };
      });
    }
    const frontAxe = await axe(page);
    const entity = await browser.newPage();
    entity.on("pageerror", (error) => errors.push(String(error)));
    entity.on("console", refused);
    await entity.goto(new URL(`${firstSlug}.html`, base).href);
    const embedded = await entity.evaluate(() => ({
      h1: document.querySelector("h1").textContent,
      jsonld: JSON.parse(document.querySelector('script[type="application/ld+json"]').textContent),
    }));
    // The IRI's Copy button: the clipboard holds the IRI, or where the
    // browser refuses the clipboard, the IRI is selected.
    if (way === "http") {
      await entity.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(base).origin });
    }
    await entity.locator(".iri .copy-button").click();
    await entity.waitForFunction(() => document.querySelector(".iri .copy-button").textContent !== "Copy");
    embedded.copy = await entity.evaluate(async () => ({
      iri: document.querySelector(".iri code").textContent,
      button: document.querySelector(".iri .copy-button").textContent,
      selection: String(window.getSelection()),
      clipboard: await navigator.clipboard?.readText().catch(() => null) ?? null,
    }));
    if (shots && way === "http") {
      await entity.setViewportSize({ width: 1100, height: 800 });
      await entity.screenshot({ path: join(shots, "entity-page.png") });
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
      await phone.goto(new URL("index.html", base).href);
      await search(phone, queries[0]);
      await phone.screenshot({ path: join(shots, "front-page-phone.png") });
    }
    const entityAxe = await axe(entity);
    // Whether a script smuggled into the page would run: a new inline
    // script element, as markup injected through a label would make. The
    // refusal is reported as a console error, which is expected here.
    entity.off("console", refused);
    const inlineScriptRuns = await entity.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.smuggled = true";
      document.body.append(script);
      return window.smuggled === true;
    });
    report[way] = { moreShown, tried, results, focused, firstSlug, axe: { front: frontAxe, entity: entityAxe }, entity: embedded, outside, errors, inlineScriptRuns };
  }
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
