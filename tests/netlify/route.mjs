// Reads a built site's `_headers` and `_redirects` with Netlify's own
// parsers (@netlify/headers-parser, @netlify/redirect-parser) and routes
// request paths with Netlify's own matcher (netlify-redirector, which the
// Netlify CLI uses), then prints what Netlify would answer, as JSON:
//
//   node route.mjs [--config netlify.toml] DIST /path /other?q=1 ...
//
// With --config, the rules of that netlify.toml are read too, as Netlify
// reads them (before the `_headers` and `_redirects` files' own), and its
// [build] table is reported.
// Shadowing is modelled as Netlify documents it and as the CLI does it: a
// rule that is not forced applies only when no file exists at the path.
// Header rules are matched with the parser's own `forRegExp`, and values of
// a header set by several rules are joined with ", ", as Netlify does.
import { parseAllHeaders } from "@netlify/headers-parser";
import { parseAllRedirects } from "@netlify/redirect-parser";
import redirector from "netlify-redirector";
import toml from "@iarna/toml";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const netlifyConfigPath = args[0] === "--config" ? args.splice(0, 2)[1] : undefined;
const [dir, ...requests] = args;
const headers = await parseAllHeaders({
  headersFiles: [join(dir, "_headers")],
  netlifyConfigPath,
  configHeaders: [],
  minimal: false,
});
const redirects = await parseAllRedirects({
  redirectsFiles: [join(dir, "_redirects")],
  netlifyConfigPath,
  configRedirects: [],
  minimal: false,
});
const build = netlifyConfigPath ? toml.parse(readFileSync(netlifyConfigPath, "utf8")).build ?? null : null;
// The redirector reads query conditions from `params`; the parser names
// them `query` (the Netlify CLI maps one to the other the same way).
const matcher = await redirector.parseJSON(
  JSON.stringify(redirects.redirects.map((rule) => ({ ...rule, params: rule.query }))),
  {},
);

const isFile = (path) => {
  try {
    return path !== "/" && statSync(join(dir, decodeURIComponent(path))).isFile();
  } catch {
    return false;
  }
};

const route = (request) => {
  const [path, query = ""] = request.split("?");
  const match = matcher.match({
    scheme: "https",
    host: "example.netlify.app",
    path,
    query,
    getHeader: () => "",
    getCookie: () => "",
  });
  let status, file, rule = null;
  if (match && !match.force404 && (match.force || !isFile(path))) {
    ({ status } = match);
    file = match.to;
    rule = `${match.from} ${match.to} ${match.status}${match.force ? "!" : ""}`;
  } else if (isFile(path)) {
    [status, file] = [200, path];
  } else {
    [status, file] = [404, null];
  }
  const values = {};
  for (const { forRegExp, values: set } of headers.headers) {
    if (!forRegExp.test(path)) continue;
    for (const [name, value] of Object.entries(set)) {
      values[name] = name in values ? `${values[name]}, ${value}` : value;
    }
  }
  return { request, status, file, rule, headers: values };
};

console.log(
  JSON.stringify({
    errors: [...headers.errors, ...redirects.errors].map(String),
    build,
    headerRules: headers.headers.map((h) => ({ for: h.for, values: h.values })),
    redirectRules: redirects.redirects.map(({ from, to, status, force, query }) => ({ from, to, status, force, query })),
    routes: requests.map(route),
  }),
);
