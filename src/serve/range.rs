//! Single byte ranges (RFC 9110, 14): a download of a large file resumes
//! where it stopped, as on a CDN. Several ranges in one request get the
//! whole file, which the RFC allows.

use bytes::Bytes;
use http::{HeaderMap, StatusCode, header};

/// The answer to a range request: 206 with the part, or 416.
pub struct Part {
    pub status: StatusCode,
    pub content_range: String,
    pub body: Bytes,
}

/// The part of `body` (whose entity tag is `tag`) that `request` asks
/// for, or `None` to send it whole: no `Range`, one the server may ignore,
/// or an `If-Range` naming another version of the file.
pub fn part(request: &HeaderMap, tag: Option<&str>, body: &Bytes) -> Option<Part> {
    let same_file = request
        .get(header::IF_RANGE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|asked| Some(asked) == tag);
    let range = request
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .filter(|_| same_file);
    let len = body.len() as u64;
    match asked(range, len) {
        Asked::Whole => None,
        Asked::Part { start, end } => Some(Part {
            status: StatusCode::PARTIAL_CONTENT,
            content_range: format!("bytes {start}-{end}/{len}"),
            body: body.slice(start as usize..=end as usize),
        }),
        Asked::Unsatisfiable => Some(Part {
            status: StatusCode::RANGE_NOT_SATISFIABLE,
            content_range: format!("bytes */{len}"),
            body: Bytes::new(),
        }),
    }
}

/// What a `Range` header asks of a body of `len` bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Asked {
    /// No range, or one the server may ignore: the whole body.
    Whole,
    /// Bytes `start..=end`.
    Part { start: u64, end: u64 },
    /// A range that starts past the end: 416.
    Unsatisfiable,
}

/// Reads a `Range` header value for a body of `len` bytes.
pub fn asked(header: Option<&str>, len: u64) -> Asked {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return Asked::Whole;
    };
    if spec.contains(',') {
        return Asked::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return Asked::Whole;
    };
    let number = |text: &str| -> Option<u64> {
        (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().ok())
            .flatten()
    };
    match (number(first.trim()), number(last.trim())) {
        // The last N bytes.
        (None, Some(suffix)) if first.trim().is_empty() => {
            if suffix == 0 || len == 0 {
                Asked::Unsatisfiable
            } else {
                Asked::Part {
                    start: len.saturating_sub(suffix),
                    end: len - 1,
                }
            }
        }
        (Some(start), end) if last.trim().is_empty() || end.is_some() => {
            if start >= len {
                return Asked::Unsatisfiable;
            }
            match end {
                Some(end) if end < start => Asked::Whole,
                Some(end) => Asked::Part {
                    start,
                    end: end.min(len - 1),
                },
                None => Asked::Part {
                    start,
                    end: len - 1,
                },
            }
        }
        _ => Asked::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_as_rfc_9110_reads_them() {
        let part = |start, end| Asked::Part { start, end };
        assert_eq!(asked(Some("bytes=0-9"), 100), part(0, 9));
        assert_eq!(asked(Some("bytes=90-"), 100), part(90, 99));
        assert_eq!(asked(Some("bytes=-10"), 100), part(90, 99));
        assert_eq!(asked(Some("bytes=-1000"), 100), part(0, 99));
        assert_eq!(asked(Some("bytes=50-5000"), 100), part(50, 99));
        assert_eq!(asked(Some("bytes=100-"), 100), Asked::Unsatisfiable);
        assert_eq!(asked(Some("bytes=-0"), 100), Asked::Unsatisfiable);
        for whole in [
            None,
            Some("bytes=0-1,5-6"),
            Some("items=0-1"),
            Some("bytes=9-2"),
            Some("bytes=x-"),
            Some("bytes="),
        ] {
            assert_eq!(asked(whole, 100), Asked::Whole, "{whole:?}");
        }
    }
}
