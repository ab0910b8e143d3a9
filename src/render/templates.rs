//! The page templates: the repository's `templates/`, compiled into the
//! binary, a user's own (`build --templates DIR`) in place of them by name.

use super::error::RenderError;
use minijinja::Environment;
use std::collections::BTreeMap;

/// Every template, by the name a user's override must have.
pub const TEMPLATES: [(&str, &str); 13] = [
    ("layout.html", include_str!("../../templates/layout.html")),
    ("index.html", include_str!("../../templates/index.html")),
    ("entity.html", include_str!("../../templates/entity.html")),
    ("vocab.html", include_str!("../../templates/vocab.html")),
    ("tree.html", include_str!("../../templates/tree.html")),
    ("browse.html", include_str!("../../templates/browse.html")),
    ("list.html", include_str!("../../templates/list.html")),
    (
        "releases.html",
        include_str!("../../templates/releases.html"),
    ),
    ("removed.html", include_str!("../../templates/removed.html")),
    ("hash.html", include_str!("../../templates/hash.html")),
    (
        "change-log.html",
        include_str!("../../templates/change-log.html"),
    ),
    ("site.css", include_str!("../../templates/site.css")),
    ("site.js", include_str!("../../templates/site.js")),
];

/// The page templates, compiled once per site.
pub struct Templates {
    pub(super) env: Environment<'static>,
    /// The stylesheet and the page script, which are copied, not rendered.
    assets: BTreeMap<&'static str, String>,
}

impl Templates {
    /// Compiles the templates, a user's `overrides` (name → source) in
    /// place of the built-in ones. A syntax error names the template and
    /// its line.
    pub fn new(overrides: &BTreeMap<String, String>) -> Result<Templates, RenderError> {
        if let Some(unknown) = overrides
            .keys()
            .find(|name| !TEMPLATES.iter().any(|(n, _)| n == name))
        {
            return Err(RenderError::UnknownTemplate {
                name: unknown.clone(),
                known: TEMPLATES.map(|(name, _)| name).join(", "),
            });
        }
        let mut env = Environment::new();
        // A name the page does not have is an error naming the template
        // and line, never an empty string on the page.
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        // Every value shown closes the bidirectional overrides it opens
        // (`bidi`), then is escaped as usual.
        env.set_formatter(|out, state, value| {
            match value
                .as_str()
                .filter(|_| !value.is_safe())
                .and_then(super::bidi::closed)
            {
                Some(shown) => minijinja::escape_formatter(out, state, &shown.into()),
                None => minijinja::escape_formatter(out, state, value),
            }
        });
        // A value as JSON fit for a <script> element, such as the data set
        // the front page embeds for search engines.
        env.add_filter("script_json", |value: minijinja::Value| {
            serde_json::to_string(&value)
                .map(|json| minijinja::Value::from_safe_string(script_json(&json)))
                .map_err(|e| {
                    minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string())
                })
        });
        let mut assets = BTreeMap::new();
        for (name, built_in) in TEMPLATES {
            let source = overrides
                .get(name)
                .cloned()
                .unwrap_or_else(|| built_in.to_owned());
            if name.ends_with(".html") {
                env.add_template_owned(name, source)
                    .map_err(RenderError::Template)?;
            } else {
                assets.insert(name, source);
            }
        }
        Ok(Templates { env, assets })
    }

    pub fn asset(&self, name: &str) -> &str {
        &self.assets[name]
    }
}

/// JSON to put inside `<script>`: `</script` or `<!--` would end or bend
/// the element, and JSON allows `<` to be written as \u003c.
pub(super) fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}
