//! Content codings: gzip and brotli by `Accept-Encoding`.
//!
//! An answer is compressed once and the result kept with it, as a CDN keeps
//! its compressed copies: compressing per request (a compression layer
//! around the router) cost a fifth of the server's throughput on entity
//! files in `cargo bench --bench serve`.

use bytes::Bytes;
use std::io::Write;

/// A coding the server can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// The `Content-Encoding` value, if the body is encoded.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }
}

/// Bodies smaller than this are sent as they are: the coding would not pay
/// for its own header.
pub const MIN_SIZE: usize = 256;

/// The coding to answer with: the client's preferred one by quality
/// (RFC 9110, 12.5.3), brotli before gzip at equal quality; a coding given
/// quality 0, or not named while `*` has quality 0, is never used.
pub fn negotiate(accept_encoding: Option<&str>) -> Coding {
    let Some(header) = accept_encoding else {
        return Coding::Identity;
    };
    let quality = |wanted: &str| -> f32 {
        let mut star = None;
        for item in header.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if name.eq_ignore_ascii_case(wanted) {
                return q;
            }
            if name == "*" {
                star = Some(q);
            }
        }
        star.unwrap_or(0.0)
    };
    let (br, gzip) = (quality("br"), quality("gzip"));
    if br > 0.0 && br >= gzip {
        Coding::Brotli
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// `body` in `coding`.
pub fn encode(body: &[u8], coding: Coding) -> Bytes {
    match coding {
        Coding::Identity => Bytes::copy_from_slice(body),
        Coding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(body.len() / 3),
                flate2::Compression::default(),
            );
            encoder.write_all(body).expect("writing to memory");
            Bytes::from(encoder.finish().expect("writing to memory"))
        }
        Coding::Brotli => {
            let mut out = Vec::with_capacity(body.len() / 3);
            {
                // Quality 5: most of brotli's gain at a fraction of its
                // slowest setting, since search answers are coded per request.
                let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
                encoder.write_all(body).expect("writing to memory");
            }
            Bytes::from(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_best_acceptable_coding_wins() {
        assert_eq!(negotiate(None), Coding::Identity);
        assert_eq!(negotiate(Some("gzip, deflate, br, zstd")), Coding::Brotli);
        assert_eq!(negotiate(Some("gzip")), Coding::Gzip);
        assert_eq!(negotiate(Some("br;q=0.5, gzip;q=0.8")), Coding::Gzip);
        assert_eq!(negotiate(Some("br;q=0, gzip;q=0")), Coding::Identity);
        assert_eq!(negotiate(Some("identity")), Coding::Identity);
        assert_eq!(negotiate(Some("*")), Coding::Brotli);
        assert_eq!(negotiate(Some("*;q=0, gzip")), Coding::Gzip);
        assert_eq!(negotiate(Some("GZIP")), Coding::Gzip);
    }

    #[test]
    fn codings_decode_to_the_body() {
        let body =
            br#"{"items": ["a", "b", "c"], "text": "the same words again and again and again"}"#
                .repeat(20);
        let mut gz = String::new();
        flate2::read::GzDecoder::new(&encode(&body, Coding::Gzip)[..])
            .read_to_string(&mut gz)
            .unwrap();
        assert_eq!(gz.as_bytes(), body);
        let mut br = Vec::new();
        brotli::Decompressor::new(&encode(&body, Coding::Brotli)[..], 4096)
            .read_to_end(&mut br)
            .unwrap();
        assert_eq!(br, body);
    }
}
