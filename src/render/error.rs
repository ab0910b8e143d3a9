//! Why a document could not be rendered, said once for every renderer.

/// Why a document could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(
        "`{name}` is not a template ontosite uses\n  help: the templates are {known}; rename the file or remove it"
    )]
    UnknownTemplate { name: String, known: String },
    #[error("{}", template_message(.0))]
    Template(minijinja::Error),
    #[error(
        "`{0}` is not an IRI that RDF allows\n  help: this is a bug in ontosite: the input's IRIs are checked when read; please report it"
    )]
    Iri(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A template error with its template and line, and what to do.
fn template_message(error: &minijinja::Error) -> String {
    let place = match (error.name(), error.line()) {
        (Some(name), Some(line)) => format!("{name}:{line}: "),
        (Some(name), None) => format!("{name}: "),
        _ => String::new(),
    };
    let detail = error.detail().map(|d| format!(": {d}")).unwrap_or_default();
    format!(
        "{place}{}{detail}\n  help: fix the template, or remove it from --templates to use the built-in one",
        error.kind()
    )
}
