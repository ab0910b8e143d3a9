// A hash IRI in a real browser: each URL given (a hash document with a
// fragment, from a server or from disk) is opened, and where the page
// ends up is reported, with the page's errors and failed answers.
//
//   node hash.mjs --chromium PATH URL...
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const at = args.indexOf("--chromium");
const executablePath = at >= 0 ? args[at + 1] : "/usr/bin/chromium";
const urls = args.filter((_, i) => i !== at && i !== at + 1);

const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const report = [];
try {
  for (const url of urls) {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    // Answers that failed (Chromium's own request for /favicon.ico is
    // not the page's, and is not seen here).
    page.on("response", (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url, { waitUntil: "load" });
    // The page script moves on at once where it moves at all.
    await page.waitForLoadState("load");
    await page.waitForTimeout(500);
    await page.waitForLoadState("load");
    report.push({
      url,
      landed: page.url(),
      heading: await page.locator("h1").first().textContent(),
      errors,
    });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
