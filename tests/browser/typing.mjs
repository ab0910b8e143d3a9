// Typing into a front page's search box, as the browser checks and the
// front benchmark do it.

/**
 * Types `query` as a reader would (the input event) and waits until the
 * results list says it answered this query whole; returns what it shows,
 * the milliseconds from the input event to then (`ms`), and to the first
 * results shown (`firstMs`: the same, or sooner when the list showed its
 * first results before the rest).
 */
export const typeQuery = (page, query) =>
  page.evaluate(async (query) => {
    const input = document.getElementById("q");
    const list = document.getElementById("results");
    const started = performance.now();
    let firstMs = null;
    const answered = new Promise((resolve) => {
      const done = () => {
        if (list.dataset.query !== query) return;
        firstMs ??= performance.now() - started;
        if (list.dataset.partial === undefined) resolve();
      };
      new MutationObserver(done).observe(list, { attributes: true, childList: true });
      done();
    });
    input.value = query;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await answered;
    return {
      query,
      ms: performance.now() - started,
      firstMs,
      total: list.dataset.total === undefined ? null : Number(list.dataset.total),
      slugs: [...list.querySelectorAll("a")].map((a) => a.dataset.slug),
      status: document.getElementById("search-status").textContent,
    };
  }, query);
