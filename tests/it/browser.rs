//! CORS proven by a browser: headless Chromium opens a page from another
//! origin that fetches from `ontosite serve`, and the page could read what
//! it fetched (`tests/browser/cors.mjs`).

use crate::serve::{Server, shipped_site};
use crate::util::*;
use serde_json::Value;

#[test]
fn a_page_from_another_origin_may_read_every_kind_of_answer() {
    needs!(CHROMIUM);
    let chromium = chromium();
    let dir = root().join("tests/browser");
    let server = Server::dir(shipped_site());
    let paths = [
        "/index.json",
        "/abbcreateitem.json",
        "/abbcreateitem.jsonld",
        "/search?q=air",
        "/search",
        "/nosuch",
    ];
    let mut args = vec![
        std::ffi::OsStr::new("--chromium"),
        chromium.as_ref(),
        server.url.as_ref(),
    ];
    args.extend(paths.iter().map(std::ffi::OsStr::new));
    let report: Value = node_json(&dir.join("cors.mjs"), &args);
    assert_ne!(
        report["origin"].as_str().unwrap(),
        server.url.trim_end_matches('/'),
        "the page must come from another origin"
    );
    // The browser does enforce CORS here: a server without the headers is blocked.
    assert!(
        report["control"]["blocked"].is_string(),
        "the control fetch was not blocked: {}",
        report["control"]
    );
    let expected = [
        (200, "application/json"),
        (200, "application/json"),
        (200, "application/ld+json"),
        (200, "application/json"),
        (400, "application/problem+json"),
        (404, "application/problem+json"),
    ];
    for (result, (status, content_type)) in
        report["results"].as_array().unwrap().iter().zip(expected)
    {
        let path = &result["path"];
        for how in ["plain", "preflighted"] {
            let seen = &result[how];
            assert_eq!(seen["status"], status, "{path} {how}: {seen}");
            assert_eq!(seen["contentType"], content_type, "{path} {how}: {seen}");
            // Exposed to scripts (Access-Control-Expose-Headers), so a
            // client can revalidate: every file answer has one.
            if status == 200 && path != "/search?q=git" {
                assert!(seen["etag"].is_string(), "{path} {how}: no ETag: {seen}");
            }
            assert!(
                seen["bytes"].as_u64().unwrap() > 50,
                "{path} {how}: the page read no body: {seen}"
            );
        }
    }
}
