//! The base URL every absolute link of a site starts with.

use std::fmt;

/// An absolute `http` or `https` URL with no query or fragment, kept without
/// a trailing slash so that `join` can always add exactly one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(String);

/// Why a text is not a usable base URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BaseUrlError {
    #[error("`{0}` is not an absolute URL ({1})")]
    NotAbsolute(String, String),
    #[error("`{0}` uses the scheme `{1}`; a base URL must be http or https")]
    Scheme(String, String),
    #[error("`{0}` has a query or a fragment; a base URL cannot have either")]
    QueryOrFragment(String),
    #[error("`{0}` holds a user name or password, which every published IRI would carry")]
    Credentials(String),
}

impl BaseUrl {
    pub fn parse(text: &str) -> Result<BaseUrl, BaseUrlError> {
        let url = url::Url::parse(text.trim())
            .map_err(|e| BaseUrlError::NotAbsolute(text.to_owned(), e.to_string()))?;
        if url.scheme() != "http" && url.scheme() != "https" {
            return Err(BaseUrlError::Scheme(
                text.to_owned(),
                url.scheme().to_owned(),
            ));
        }
        if url.cannot_be_a_base() || url.host_str().is_none_or(str::is_empty) {
            return Err(BaseUrlError::NotAbsolute(
                text.to_owned(),
                "no host".to_owned(),
            ));
        }
        if !url.username().is_empty() || url.password().is_some() {
            // Not echoed: the message would print the secret.
            return Err(BaseUrlError::Credentials(format!(
                "{}://…@{}",
                url.scheme(),
                url.host_str().unwrap_or_default()
            )));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(BaseUrlError::QueryOrFragment(text.to_owned()));
        }
        Ok(BaseUrl(url.as_str().trim_end_matches('/').to_owned()))
    }

    /// A base URL as a build wrote it, which [`BaseUrl::parse`] made
    /// already: an `http` or `https` URL with a host, in ASCII, with no
    /// space, control character, user, query, fragment or character that
    /// `parse` would have percent-encoded. Taken as it is (less its
    /// trailing slashes, as `parse` keeps it), without the URL parser and
    /// its IDNA tables, which would be most of the WebAssembly search
    /// reader (`wasm/`). What `parse` would only normalise (a default
    /// port, `/../`) is taken as written: links are made of it, never
    /// requests.
    pub fn as_written(text: &str) -> Result<BaseUrl, BaseUrlError> {
        let Some((scheme, rest)) = text.split_once("://") else {
            return Err(BaseUrlError::NotAbsolute(
                text.to_owned(),
                "no scheme".to_owned(),
            ));
        };
        if scheme != "http" && scheme != "https" {
            return Err(BaseUrlError::Scheme(text.to_owned(), scheme.to_owned()));
        }
        let rest = rest.trim_end_matches('/');
        let host = rest.split('/').next().unwrap_or_default();
        let unwritten = |c: char| !c.is_ascii_graphic() || "\\\"<>^`{|}".contains(c);
        if host.is_empty() || rest.contains(unwritten) {
            return Err(BaseUrlError::NotAbsolute(
                text.to_owned(),
                "not as a build writes it".to_owned(),
            ));
        }
        if host.contains('@') {
            return Err(BaseUrlError::Credentials(format!("{scheme}://…")));
        }
        if rest.contains(['?', '#']) {
            return Err(BaseUrlError::QueryOrFragment(text.to_owned()));
        }
        Ok(BaseUrl(format!("{scheme}://{rest}")))
    }

    /// The absolute URL of `path`, a site path without its leading slash.
    pub fn join(&self, path: &str) -> String {
        self.url_of(path).to_string()
    }

    /// The same URL, written where it is displayed: a search answer
    /// writes hundreds into its output without a string each.
    pub fn url_of<P: fmt::Display>(&self, path: P) -> SiteUrl<'_, P> {
        SiteUrl(self, path)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The absolute URL of a site path ([`BaseUrl::url_of`]).
pub struct SiteUrl<'a, P>(&'a BaseUrl, P);

impl<P: fmt::Display> fmt::Display for SiteUrl<'_, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.0, self.1)
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_joins() {
        let base = BaseUrl::parse("https://example.org/actions/").unwrap();
        assert_eq!(base.as_str(), "https://example.org/actions");
        assert_eq!(base.join("a.json"), "https://example.org/actions/a.json");
        assert_eq!(
            BaseUrl::parse("http://x.test").unwrap().join(""),
            "http://x.test/"
        );
    }

    #[test]
    fn rejects_what_is_not_a_base() {
        assert!(matches!(
            BaseUrl::parse("example.org"),
            Err(BaseUrlError::NotAbsolute(..))
        ));
        assert!(matches!(
            BaseUrl::parse("ftp://example.org"),
            Err(BaseUrlError::Scheme(..))
        ));
        assert!(matches!(
            BaseUrl::parse("https://e.org/?a=1"),
            Err(BaseUrlError::QueryOrFragment(..))
        ));
        assert!(matches!(
            BaseUrl::parse("https://e.org/#x"),
            Err(BaseUrlError::QueryOrFragment(..))
        ));
        assert!(BaseUrl::parse("mailto:a@b.c").is_err());
    }

    /// What `parse` writes, `as_written` takes back unchanged; what it
    /// would refuse or write otherwise, `as_written` refuses.
    #[test]
    fn a_written_base_is_taken_back_as_it_is() {
        for text in [
            "https://example.org/actions/",
            "http://x.test",
            "https://bücher.example/a%20b",
            "http://[::1]:8080/x",
        ] {
            let parsed = BaseUrl::parse(text).unwrap();
            assert_eq!(BaseUrl::as_written(parsed.as_str()), Ok(parsed.clone()));
            // As the search index's manifest writes it.
            assert_eq!(BaseUrl::as_written(&parsed.join("")), Ok(parsed), "{text}");
        }
        for text in [
            "example.org",
            "ftp://example.org",
            "https://",
            "https:///",
            "https://e.org/a b",
            "https://e.org/a\tb",
            "https://u:p@e.org",
            "https://e.org/?a=1",
            "https://e.org/#x",
            "https://e.org\\x",
            "https://bücher.example",
            "https://e.org/{x}",
        ] {
            assert!(BaseUrl::as_written(text).is_err(), "{text}");
        }
    }
}
