//! A large object that changed, sent as what changed. The whole dumps and
//! lists change with any entity (one entity at 100,000 changed 266 MB of
//! them), but only around it: the object is cut into chunks where its
//! content says (`output::chunks`: by the build as it wrote the file, or
//! by publish where the build did not), so
//! that an edit leaves the chunks before and after it as they were, and a
//! chunk the object already held in the store is copied there (S3's
//! `UploadPartCopy`, a range of the object as it stands, into the
//! multipart upload that replaces it) instead of sent again. The chunks
//! are recorded with the object and the entity tag the store gave it
//! (`Object::chunks`, `Object::e_tag`), and copied only from that version
//! of it; readers
//! see the old object whole until the new one is complete.

use super::PublishError;
use super::s3::{self, S3};
use super::store::{Bucket, Failure, Headers, Target};
use crate::output::objects::Chunk;
use std::path::Path;

/// S3 takes parts of 5 MiB at least, all but the last: bytes sent around
/// an edit make up a part that size, taken from the held bytes beside it.
const PART_MIN: u64 = 5 << 20;

/// The most bytes a part sent holds, which bounds what is held to send
/// it; twice `PART_MIN` or more, so that the run split into parts of at
/// most this makes parts of at least `PART_MIN`.
const SENT_MOST: u64 = 16 << 20;

const _: () = assert!(SENT_MOST >= 2 * PART_MIN);

/// The most bytes a copied part holds (S3 copies at most 5 GiB a part, but
/// a store may read a part whole before it answers).
const COPIED_MOST: u64 = 256 << 20;

/// S3's most parts an upload.
const MOST_PARTS: usize = 10_000;

/// Where a part of the new object comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Bytes `at..at + bytes` of the object as the store holds it.
    Held { at: u64, bytes: u64 },
    /// Bytes `at..at + bytes` of the file, sent.
    Sent { at: u64, bytes: u64 },
}

impl Source {
    /// Where the bytes a part copies end in the held object (0 for a
    /// part sent).
    fn held_end(&self) -> u64 {
        match *self {
            Source::Held { at, bytes } => at + bytes,
            Source::Sent { .. } => 0,
        }
    }
}

/// Whether the object the store holds (its entity tag and length, as a
/// HEAD answers) is the version recorded (`recorded`), long enough for
/// the bytes copied (`held_end`); else why not. Tags are compared as
/// S3 quotes them or not, and a weak tag (`W/`) is no version at all.
fn still_held(
    tag: Option<&str>,
    length: Option<i64>,
    recorded: &str,
    held_end: u64,
) -> Result<(), String> {
    let bare = |tag: &str| tag.trim().trim_matches('"').to_owned();
    match tag {
        None => return Err("the store named no entity tag of the object".to_owned()),
        Some(tag) if tag.trim().starts_with("W/") || bare(tag) != bare(recorded) => {
            return Err(
                "the store holds another version of it than the last publish left".to_owned(),
            );
        }
        Some(_) => {}
    }
    match length.and_then(|l| u64::try_from(l).ok()) {
        Some(length) if length >= held_end => Ok(()),
        _ => Err("the store holds less of it than the last publish left".to_owned()),
    }
}

/// The parts of an object of chunks `new` that held chunks `held`, in
/// order: each run of chunks the object held, in the same order, is
/// copied from where it lies, and the rest sent, each part but the last
/// of `PART_MIN` or more (a run sent is made up to it from the held bytes
/// beside it; a held run shorter than it is sent). None where nothing is
/// copied, or the parts would be more than S3 takes (the object is then
/// sent as any other).
pub fn assembly(new: &[Chunk], held: &[Chunk]) -> Option<Vec<Source>> {
    let mut by_hash: std::collections::HashMap<&str, Vec<&Chunk>> =
        std::collections::HashMap::new();
    for chunk in held {
        by_hash.entry(chunk.hash.as_str()).or_default().push(chunk);
    }
    let mut parts = Parts::default();
    // Where the held run being copied goes on, in the held object.
    let mut held_next: Option<u64> = None;
    for chunk in new {
        let found = by_hash.get(chunk.hash.as_str()).and_then(|candidates| {
            let same = candidates.iter().filter(|c| c.bytes == chunk.bytes);
            let mut same = same.peekable();
            let first = same.peek().copied();
            same.find(|c| Some(c.at) == held_next).or(first).copied()
        });
        match found {
            Some(old) => {
                parts.held(chunk.at, old.at, chunk.bytes);
                held_next = Some(old.at + old.bytes);
            }
            None => {
                parts.sent(chunk.at, chunk.bytes);
                held_next = None;
            }
        }
    }
    let parts = parts.finish();
    let copies = parts.iter().any(|p| matches!(p, Source::Held { .. }));
    (copies && parts.len() <= MOST_PARTS).then_some(parts)
}

/// The parts of an assembly as its runs come, in the new object's order.
#[derive(Debug, Default)]
struct Parts {
    done: Vec<Source>,
    /// The bytes to send not yet in a part: `(at, bytes)` of the new
    /// object.
    sending: Option<(u64, u64)>,
    /// The held run being gathered: `(at in the new object, at in the
    /// held one, bytes)`.
    holding: Option<(u64, u64, u64)>,
}

impl Parts {
    /// Bytes `at..at + bytes` of the new object are held at `held_at`.
    fn held(&mut self, at: u64, held_at: u64, bytes: u64) {
        match &mut self.holding {
            Some((_, from, run)) if *from + *run == held_at => *run += bytes,
            _ => {
                self.close_held();
                self.holding = Some((at, held_at, bytes));
            }
        }
    }

    /// Bytes `at..at + bytes` of the new object are sent.
    fn sent(&mut self, at: u64, bytes: u64) {
        self.close_held();
        self.send(at, bytes);
    }

    fn send(&mut self, at: u64, bytes: u64) {
        match &mut self.sending {
            Some((_, run)) => *run += bytes,
            None => self.sending = Some((at, bytes)),
        }
    }

    /// Ends the held run: bytes to send before it take from its start
    /// what makes them a part; what is left is copied where it is a part
    /// itself, else sent.
    fn close_held(&mut self) {
        let Some((mut at, mut held_at, mut bytes)) = self.holding.take() else {
            return;
        };
        if let Some((_, sending)) = self.sending {
            let lent = PART_MIN.saturating_sub(sending).min(bytes);
            self.send(at, lent);
            (at, held_at, bytes) = (at + lent, held_at + lent, bytes - lent);
        }
        if bytes < PART_MIN {
            if bytes > 0 {
                self.send(at, bytes);
            }
            return;
        }
        self.flush_sent();
        for (from, bytes) in even_pieces(bytes, COPIED_MOST) {
            self.done.push(Source::Held {
                at: held_at + from,
                bytes,
            });
        }
    }

    /// The bytes to send, as parts of at most `SENT_MOST` (each then of
    /// half of it or more).
    fn flush_sent(&mut self) {
        let Some((at, bytes)) = self.sending.take() else {
            return;
        };
        for (from, bytes) in even_pieces(bytes, SENT_MOST) {
            self.done.push(Source::Sent {
                at: at + from,
                bytes,
            });
        }
    }

    fn finish(mut self) -> Vec<Source> {
        self.close_held();
        self.flush_sent();
        self.done
    }
}

/// `bytes` cut into the fewest pieces of at most `most`, of even sizes
/// (so each of half `most` or more where there are two or more): `(from,
/// bytes)` each.
fn even_pieces(bytes: u64, most: u64) -> impl Iterator<Item = (u64, u64)> {
    let pieces = bytes.div_ceil(most);
    (0..pieces).map(move |n| {
        let (from, to) = (bytes * n / pieces, bytes * (n + 1) / pieces);
        (from, to - from)
    })
}

/// The bytes an assembly sends, and copies within the store.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub sent: u64,
    pub copied: u64,
}

impl Moved {
    /// What a part moves: its bytes, sent or copied.
    fn of(part: &Source) -> Moved {
        match *part {
            Source::Held { bytes, .. } => Moved {
                sent: 0,
                copied: bytes,
            },
            Source::Sent { bytes, .. } => Moved {
                sent: bytes,
                copied: 0,
            },
        }
    }
}

impl std::ops::Add for Moved {
    type Output = Moved;
    fn add(self, other: Moved) -> Moved {
        Moved {
            sent: self.sent + other.sent,
            copied: self.copied + other.copied,
        }
    }
}

impl std::iter::Sum for Moved {
    fn sum<I: Iterator<Item = Moved>>(moved: I) -> Moved {
        moved.fold(Moved::default(), |all, one| all + one)
    }
}

/// What an assembly did: the bytes it moved and the entity tag of the
/// object it made.
#[derive(Debug)]
pub struct Assembled {
    pub moved: Moved,
    pub e_tag: Option<String>,
}

/// Why an assembly did not replace the object.
#[derive(Debug)]
pub enum Unassembled {
    /// The store took no copy of the object as it was recorded: it has
    /// no `UploadPartCopy` (`store_wide`), or the object it holds is not
    /// the version recorded (replaced, gone, shorter). The object is then
    /// sent whole.
    Refused { why: String, store_wide: bool },
    /// Any other failure (credentials, the network), said as any upload's.
    Failed(PublishError),
}

/// Replaces the object at `path`, held as `e_tag`, with the file's bytes,
/// as `parts` says: held parts copied from that version of the object
/// (`x-amz-copy-source-if-match`), the others sent, in one multipart
/// upload with the object's headers, aborted on any failure (the object
/// then stands as it was).
pub async fn assemble(
    store: &S3,
    target: &Target,
    path: &str,
    file: &Path,
    headers: &Headers,
    (parts, e_tag): (&[Source], &str),
) -> Result<Assembled, Unassembled> {
    use futures_util::{StreamExt, TryStreamExt};
    let key = target.key(path).map_err(Unassembled::Failed)?;
    let what = |doing: &str| format!("could not {doing} {}", target.url(path));
    // The version recorded, asked of the store before anything is copied
    // from it: the copies also say `x-amz-copy-source-if-match`, but a
    // store may not heed it (Cloudflare R2's docs list it unsupported).
    // Whatever the store answers but the object (an object encrypted with
    // a customer's key answers 400), the object is sent whole; no answer
    // at all is a failure, as any upload's.
    let head = match store
        .client()
        .head_object()
        .bucket(store.bucket())
        .key(&key)
        .set_request_payer(store.request_payer())
        .send()
        .await
        .map_err(s3::failure)
    {
        Ok(head) => head,
        Err(failure) if failure.status.is_some() => {
            return Err(Unassembled::Refused {
                why: failure.detail,
                store_wide: false,
            });
        }
        Err(failure) => return Err(judge(Call::Other, what("ask the store for"), failure)),
    };
    let held_end = parts.iter().map(Source::held_end).max().unwrap_or(0);
    if let Err(why) = still_held(head.e_tag(), head.content_length(), e_tag, held_end) {
        return Err(Unassembled::Refused {
            why,
            store_wide: false,
        });
    }
    let upload = store
        .start_upload(&key, headers)
        .await
        .map_err(|e| judge(Call::Other, what("start the upload of"), e))?;
    let source = copy_source(store.bucket(), &key);
    let part = |(n, part): (usize, &Source)| {
        let (key, upload, source, what) = (&key, &upload, &source, &what);
        let (number, part) = (n as i32 + 1, *part);
        async move {
            match part {
                Source::Held { at, bytes } => {
                    let copied = store
                        .client()
                        .upload_part_copy()
                        .bucket(store.bucket())
                        .key(key)
                        .upload_id(upload)
                        .part_number(number)
                        .copy_source(source)
                        .copy_source_if_match(e_tag)
                        .copy_source_range(format!("bytes={at}-{}", at + bytes - 1))
                        .set_request_payer(store.request_payer())
                        .send()
                        .await
                        .map_err(|e| judge(Call::Copy, what("copy a part of"), s3::failure(e)))?;
                    // A store that answers a copy with no part made
                    // copies nothing, whatever it says.
                    let result = copied
                        .copy_part_result()
                        .filter(|r| r.e_tag().is_some())
                        .ok_or_else(|| Unassembled::Refused {
                            why: "it answered a copied part with no entity tag".to_owned(),
                            store_wide: true,
                        })?;
                    Ok(aws_sdk_s3::types::CompletedPart::builder()
                        .part_number(number)
                        .set_e_tag(result.e_tag().map(str::to_owned))
                        .build())
                }
                Source::Sent { at, bytes } => {
                    let body = read_range(file, at, bytes)
                        .await
                        .map_err(Unassembled::Failed)?;
                    store
                        .put_part(key, upload, number, body.into())
                        .await
                        .map_err(|e| judge(Call::Other, what("send a part of"), e))
                }
            }
        }
    };
    let done = async {
        // Two parts at once: a part sent is held in memory whole.
        let completed: Vec<_> = futures_util::stream::iter(parts.iter().enumerate().map(part))
            .buffered(2)
            .try_collect()
            .await?;
        store
            .finish_upload(&key, &upload, completed)
            .await
            .map_err(|e| judge(Call::Other, what("complete the upload of"), e))
    }
    .await;
    match done {
        Ok(e_tag) => Ok(Assembled {
            moved: parts.iter().map(Moved::of).sum(),
            e_tag,
        }),
        Err(error) => {
            // A multipart upload left open is kept, and billed, by the store.
            let _ = store.abort_upload(&key, &upload).await;
            Err(error)
        }
    }
}

/// Which call of an assembly failed: a copy is judged apart, since a
/// store that takes no copy at all may answer it 400 (Google Cloud
/// Storage's S3 API has no `UploadPartCopy`; the answer it gives is not
/// documented), where a 400 to any other call is a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Call {
    Copy,
    Other,
}

/// A failure of the SDK's, as what it means for the assembly: the store
/// refusing the copy (no such call, no such version of the object, a
/// range it does not hold, the key not allowed to read it), or a failure
/// as any upload's.
fn judge(call: Call, what: String, failure: Failure) -> Unassembled {
    let (status, code) = (failure.status, failure.code.as_deref());
    // A key that may write but not read (s3:GetObject) sends the object
    // whole, as before copies: where it may not write either, that says so.
    let stale = matches!(status, Some(403 | 404 | 412 | 416))
        || matches!(
            code,
            Some("NoSuchKey" | "PreconditionFailed" | "InvalidRange" | "AccessDenied")
        );
    let store_wide = status == Some(501)
        || code == Some("NotImplemented")
        || (call == Call::Copy && status == Some(400) && !stale);
    if store_wide || stale {
        return Unassembled::Refused {
            why: failure.detail,
            store_wide,
        };
    }
    Unassembled::Failed(PublishError::Store {
        what,
        detail: failure.detail,
        help: "check the key's rights on the bucket (s3:PutObject, which also allows the multipart upload, and s3:GetObject to copy from the object), and run publish again",
    })
}

/// `x-amz-copy-source`: the bucket and the key, percent-encoded as S3
/// reads the header.
fn copy_source(bucket: &str, key: &str) -> String {
    const KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/');
    format!(
        "{bucket}/{}",
        percent_encoding::utf8_percent_encode(key, KEPT)
    )
}

/// Whether the bytes of `file` an assembly of `parts` sent are those of
/// the chunks listed for it (`chunks`, the build's, not cut from the file
/// itself): each chunk a part sent touches is read from the file whole
/// and hashed. The parts copied hold chunks of the same hashes already.
pub async fn sent_as_listed(
    file: &Path,
    chunks: &[Chunk],
    parts: &[Source],
) -> Result<bool, PublishError> {
    let sent: Vec<(u64, u64)> = parts
        .iter()
        .filter_map(|part| match *part {
            Source::Sent { at, bytes } => Some((at, at + bytes)),
            Source::Held { .. } => None,
        })
        .collect();
    for chunk in chunks {
        let end = chunk.at + chunk.bytes;
        if sent.iter().any(|&(from, to)| from < end && chunk.at < to) {
            let bytes = read_range(file, chunk.at, chunk.bytes).await?;
            if crate::output::objects::hash(&bytes) != chunk.hash {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Bytes `at..at + bytes` of `file`.
async fn read_range(file: &Path, at: u64, bytes: u64) -> Result<Vec<u8>, PublishError> {
    use tokio::io::{AsyncReadExt, AsyncSeekExt};
    let read_error = |source| PublishError::Read {
        path: file.to_owned(),
        source,
    };
    let mut opened = tokio::fs::File::open(file).await.map_err(read_error)?;
    opened
        .seek(std::io::SeekFrom::Start(at))
        .await
        .map_err(read_error)?;
    let mut body = vec![0; bytes as usize];
    opened.read_exact(&mut body).await.map_err(read_error)?;
    Ok(body)
}

#[cfg(test)]
#[path = "../../tests/support/dump_lines.rs"]
mod dump_lines;

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: usize, seed: u64) -> Vec<u8> {
        super::dump_lines::lines_of_a_dump(lines, seed)
    }

    fn chunks_of(bytes: &[u8]) -> Vec<Chunk> {
        let mut cutter = crate::output::chunks::Cutter::new();
        cutter.update(bytes);
        cutter.finish().0
    }

    /// The parts, read from where they say, each of S3's size but the
    /// last.
    fn rebuilt(parts: &[Source], old: &[u8], new: &[u8]) -> Vec<u8> {
        let mut rebuilt: Vec<u8> = Vec::new();
        for (n, part) in parts.iter().enumerate() {
            let (from, at, bytes) = match *part {
                Source::Held { at, bytes } => (old, at, bytes),
                Source::Sent { at, bytes } => (new, at, bytes),
            };
            assert!(bytes >= PART_MIN || n + 1 == parts.len(), "{parts:?}");
            rebuilt.extend(&from[at as usize..(at + bytes) as usize]);
        }
        rebuilt
    }

    fn sent(parts: &[Source]) -> u64 {
        parts.iter().map(Moved::of).sum::<Moved>().sent
    }

    /// A line added after byte `at` of `text`.
    fn added(text: &[u8], at: usize, line: &[u8]) -> Vec<u8> {
        let after = text[at..].iter().position(|&b| b == b'\n').unwrap() + at + 1;
        [&text[..after], line, &text[after..]].concat()
    }

    /// Chunks cover the object in order; an edit changes the chunks
    /// around it, and the assembly sends those and what makes them a part,
    /// and copies every other byte from where it was.
    #[test]
    fn an_edit_sends_only_the_chunks_around_it() {
        let old = text(400_000, 7);
        let held = chunks_of(&old);
        let mut at = 0;
        for chunk in &held {
            assert_eq!(chunk.at, at);
            assert!(chunk.bytes <= crate::output::chunks::CUT_MAX as u64);
            at += chunk.bytes;
        }
        assert_eq!(at, old.len() as u64);
        let line = b"<https://example.org/new> <https://example.org/p> \"added\" .\n";
        let spoiled = PART_MIN + 2 * crate::output::chunks::CUT_MAX as u64;
        // In the middle, at the start, at the end, and in two places.
        let middle = added(&old, old.len() / 2, line);
        let start = [line.as_slice(), &old].concat();
        let end = [old.as_slice(), line].concat();
        let twice = added(&added(&old, old.len() / 4, line), old.len() * 3 / 4, line);
        for (new, most) in [
            (middle, spoiled),
            (start, spoiled),
            (end, spoiled),
            (twice, 2 * spoiled),
        ] {
            let parts = assembly(&chunks_of(&new), &held).unwrap();
            assert!(rebuilt(&parts, &old, &new) == new, "{parts:?}");
            assert!(sent(&parts) <= most, "{} sent: {parts:?}", sent(&parts));
        }
        // A small object changed: sent whole, a part of less than S3's
        // least, which only a last part may be.
        let small = text(30_000, 3);
        let small_new = added(&small, small.len() / 2, line);
        let parts = assembly(&chunks_of(&small_new), &chunks_of(&small));
        assert_eq!(parts, None);
        // Nothing held in common: no assembly.
        assert_eq!(assembly(&chunks_of(&text(200_000, 9)), &held), None);
    }

    /// A copy is made only from the version recorded, whole: the tag
    /// quoted or not, never weak, never another; the object as long as
    /// what is copied.
    #[test]
    fn copies_come_only_from_the_version_recorded() {
        let recorded = "\"9b2cf535f27731c974343645a3985328-3\"";
        let bare = "9b2cf535f27731c974343645a3985328-3";
        assert_eq!(still_held(Some(recorded), Some(100), recorded, 100), Ok(()));
        assert_eq!(still_held(Some(bare), Some(200), recorded, 100), Ok(()));
        assert_eq!(still_held(Some(recorded), Some(100), bare, 100), Ok(()));
        let refused = [
            still_held(None, Some(100), recorded, 100),
            still_held(
                Some("\"0cc175b9c0f1b6a831c399e269772661\""),
                Some(100),
                recorded,
                100,
            ),
            still_held(Some(&format!("W/{recorded}")), Some(100), recorded, 100),
            still_held(Some(recorded), Some(99), recorded, 100),
            still_held(Some(recorded), None, recorded, 100),
            still_held(Some(recorded), Some(-1), recorded, 0),
        ];
        for (n, judged) in refused.iter().enumerate() {
            assert!(judged.is_err(), "case {n}: {judged:?}");
        }
    }

    /// The copy source names the key as S3 reads the header: encoded but
    /// for its separators and the characters URLs leave as they are.
    #[test]
    fn the_copy_source_is_the_key_encoded() {
        assert_eq!(
            copy_source("ontology", "site/a b/~x%é.json"),
            "ontology/site/a%20b/~x%25%C3%A9.json"
        );
    }

    /// Runs of held and sent chunks of every length come out as parts S3
    /// takes, which rebuild the object.
    #[test]
    fn any_runs_make_parts_s3_takes() {
        let mib = 1 << 20;
        let chunk = |at: u64, bytes: u64, hash: &str| Chunk {
            at,
            bytes,
            hash: hash.to_owned(),
        };
        // A held object of 24 chunks of a mebibyte, "h0" to "h23".
        let held: Vec<Chunk> = (0..24)
            .map(|n| chunk(n * mib, mib, &format!("h{n}")))
            .collect();
        let old: Vec<u8> = (0..24 * mib).map(|n| (n / mib) as u8).collect();
        for pattern in [
            "hhhhhhhhhhsshhhhhhhhhh",
            "shhhhhhhhhhhhhhhhhhhhh",
            "hhhhhhhhhhhhhhhhhhhhhs",
            "hhhhhhshhhhhhshhhhhhs",
            "hhhhhshhhhhshhhhhs",
            "hhhshhhshhhshhhshhhs",
            "hhhhhhhsssssssssssssshhhhhhh",
            "hhhhhhhhhhhhhhhhhhhhhhhh",
        ] {
            let mut new_chunks = Vec::new();
            let mut new = Vec::new();
            let mut from = 0;
            for (n, kind) in pattern.bytes().enumerate() {
                let at = new.len() as u64;
                if kind == b'h' {
                    let h = from % 24;
                    new_chunks.push(chunk(at, mib, &format!("h{h}")));
                    new.extend(&old[(h * mib) as usize..((h + 1) * mib) as usize]);
                    from += 1;
                } else {
                    new_chunks.push(chunk(at, mib, &format!("s{n}")));
                    new.extend(std::iter::repeat_n(200u8, mib as usize));
                }
            }
            // Held runs of less than a part are sent: nothing to copy.
            let copies = !pattern.starts_with("hhhs");
            let parts = assembly(&new_chunks, &held);
            assert_eq!(parts.is_some(), copies, "{pattern}: {parts:?}");
            let parts = parts.unwrap_or_else(|| {
                vec![Source::Sent {
                    at: 0,
                    bytes: new.len() as u64,
                }]
            });
            assert!(rebuilt(&parts, &old, &new) == new, "{pattern}: {parts:?}");
        }
    }
}
