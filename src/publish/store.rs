//! The bucket a site is published to, as publish asks things of it:
//! where its keys are (`Target`), what each object is written with, the
//! few calls of S3's that every object needs (`Bucket`, which the SDK's
//! client makes, `s3::S3`), and what the store's failures mean to a
//! publisher, said without a secret.

use super::PublishError;
use aws_sdk_s3::types::CompletedPart;
use bytes::Bytes;
use std::future::Future;
use std::time::SystemTime;

/// `s3://bucket/prefix`: the bucket and the key prefix the site's paths
/// go under (none: the bucket's root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub bucket: String,
    pub prefix: String,
}

impl Target {
    pub fn parse(text: &str) -> Result<Target, PublishError> {
        let refused = |why: &str| PublishError::Target {
            target: shown_target(text),
            why: why.to_owned(),
        };
        // Before anything else: a secret may hold a `/`, and so reach past
        // where the bucket's name would end.
        if credentials_end(text).is_some() {
            return Err(refused(
                "it holds credentials; give them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or a profile), never in the target",
            ));
        }
        let rest = text
            .strip_prefix("s3://")
            .ok_or_else(|| refused("it does not start with s3://"))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let valid_bucket = (3..=63).contains(&bucket.len())
            && bucket
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
        if !valid_bucket {
            return Err(refused(
                "its bucket name is not 3 to 63 lower-case letters, digits, `-` and `.`",
            ));
        }
        // One `/` may end the target (`s3://bucket/site/`); any other
        // empty segment is refused, not trimmed.
        let prefix = prefix.strip_suffix('/').unwrap_or(prefix);
        if prefix.split('/').any(|s| s == "." || s == "..") {
            return Err(refused("its prefix has a `.` or `..` segment"));
        }
        if !prefix.is_empty() && prefix.split('/').any(str::is_empty) {
            return Err(refused("its prefix has an empty segment (`//`)"));
        }
        if prefix.chars().any(char::is_control) {
            return Err(refused("its prefix holds a control character"));
        }
        Ok(Target {
            bucket: bucket.to_owned(),
            prefix: prefix.to_owned(),
        })
    }

    /// The key of the site path `path` (no leading `/`), its characters
    /// as they are: the client encodes them on the wire. A path that makes
    /// no key of its own (none at all, a `/` at either end, an empty, `.`
    /// or `..` segment, a control character) is refused: no other key
    /// stands in for it.
    pub fn key(&self, path: &str) -> Result<String, PublishError> {
        let refused = |why: &str| PublishError::Key {
            url: self.url(path),
            why: why.to_owned(),
        };
        if path.is_empty() || path.starts_with('/') || path.ends_with('/') {
            return Err(refused("it is no file's path in the site"));
        }
        if path.chars().any(char::is_control) {
            return Err(refused("it holds a control character"));
        }
        if path.split('/').any(str::is_empty) {
            return Err(refused("it has an empty segment (`//`)"));
        }
        if path.split('/').any(|s| s == "." || s == "..") {
            return Err(refused("it has a `.` or `..` segment"));
        }
        Ok(match self.prefix.as_str() {
            "" => path.to_owned(),
            prefix => format!("{prefix}/{path}"),
        })
    }

    /// The key every key of the site begins with: the prefix and a `/`,
    /// or nothing at the bucket's root.
    pub fn under(&self) -> String {
        match self.prefix.as_str() {
            "" => String::new(),
            prefix => format!("{prefix}/"),
        }
    }

    /// The site path of a key under the prefix; none for a key elsewhere.
    pub fn path_of(&self, key: &str) -> Option<String> {
        key.strip_prefix(&self.under()).map(str::to_owned)
    }

    /// Where `path` is, for a message: its characters escaped where a
    /// terminal would act on them.
    pub fn url(&self, path: &str) -> String {
        let key = match self.prefix.as_str() {
            "" => path.to_owned(),
            prefix => format!("{prefix}/{path}"),
        };
        format!("s3://{}/{}", self.bucket, key.escape_debug())
    }
}

/// Where credentials written into a target (`SCHEME://KEY:SECRET@...`)
/// end: the last `@` with a `:` before it, after the scheme. A secret may
/// hold a `/`, so no `/` ends them.
fn credentials_end(text: &str) -> Option<usize> {
    let start = text.find("://").map_or(0, |at| at + 3);
    let at = start + text[start..].rfind('@')?;
    text[start..at].contains(':').then_some(at)
}

/// A target as a message shows it: credentials never shown, control and
/// bidirectional characters escaped.
pub(super) fn shown_target(text: &str) -> String {
    let shown = match credentials_end(text) {
        Some(at) => {
            let start = text.find("://").map_or(0, |at| at + 3);
            format!("{}[redacted]{}", &text[..start], &text[at..])
        }
        None => text.to_owned(),
    };
    shown.escape_debug().to_string()
}

/// What an object carries of the headers a host would send with its
/// file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    pub content_type: Option<String>,
    pub cache_control: Option<String>,
}

/// The headers of the file at `path`, as far as an object carries them:
/// its type and caching, from the site's `_headers` rules (the route
/// table's), else its extension's type.
pub fn headers(rules: &[(String, String)], path: &str) -> Headers {
    let header = |name: &str| {
        rules
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let content_type = header("Content-Type").unwrap_or_else(|| crate::site::media::of_file(path));
    let cache_control = crate::site::routes::cache_control(&format!("/{path}"))
        .map(str::to_owned)
        .or_else(|| header("Cache-Control"));
    Headers {
        content_type: Some(content_type),
        cache_control,
    }
}

/// An object as the store describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub key: String,
    pub e_tag: Option<String>,
    pub last_modified: Option<SystemTime>,
}

/// An object's bytes as they arrive.
pub type Body = futures_util::stream::BoxStream<'static, Result<Bytes, Failure>>;

/// What a write asks of the object it replaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Any,
    /// There is none (`If-None-Match: *`).
    Absent,
    /// It is the version of this entity tag (`If-Match`).
    Matches(String),
}

/// A call the store did not carry out: its status and code where it
/// answered, and what was said, scrubbed of secrets.
#[derive(Debug, Clone)]
pub struct Failure {
    pub status: Option<u16>,
    pub code: Option<String>,
    pub detail: String,
}

impl Failure {
    pub fn other(detail: String) -> Failure {
        Failure {
            status: None,
            code: None,
            detail,
        }
    }

    /// No such object (where no such bucket is another failure).
    pub fn not_found(&self) -> bool {
        match self.code.as_deref() {
            Some("NoSuchKey" | "NotFound") => true,
            Some("NoSuchBucket") => false,
            _ => self.status == Some(404),
        }
    }

    /// The object was not as the write's condition asked.
    pub fn precondition(&self) -> bool {
        self.status == Some(412)
            || matches!(
                self.code.as_deref(),
                Some("PreconditionFailed" | "ConditionalRequestConflict")
            )
    }

    fn refused(&self) -> bool {
        matches!(self.status, Some(401 | 403))
            || matches!(
                self.code.as_deref(),
                Some("InvalidAccessKeyId" | "SignatureDoesNotMatch" | "AccessDenied")
            )
    }
}

/// The calls of S3's that publish makes of every object, keyed as the
/// bucket keys them (`Target::key`). The SDK's client makes them
/// (`s3::S3`); the tests of what is built on them run them in memory
/// too (`testing::Memory`).
pub trait Bucket: Sync {
    /// The object and its bytes; none where there is none.
    fn get(&self, key: &str) -> impl Future<Output = Result<Option<(Meta, Body)>, Failure>> + Send;
    fn head(&self, key: &str) -> impl Future<Output = Result<Option<Meta>, Failure>> + Send;
    /// Fails where the bucket cannot be listed under `prefix` (none such,
    /// no right to).
    fn reach(&self, prefix: &str) -> impl Future<Output = Result<(), Failure>> + Send;
    fn list(&self, prefix: &str) -> impl Future<Output = Result<Vec<Meta>, Failure>> + Send;
    /// Writes the object whole; its entity tag, where the store gives one.
    fn put(
        &self,
        key: &str,
        body: Bytes,
        headers: &Headers,
        condition: Condition,
    ) -> impl Future<Output = Result<Option<String>, Failure>> + Send;
    /// Starts a multipart upload; its ID.
    fn start_upload(
        &self,
        key: &str,
        headers: &Headers,
    ) -> impl Future<Output = Result<String, Failure>> + Send;
    fn put_part(
        &self,
        key: &str,
        upload: &str,
        number: i32,
        body: Bytes,
    ) -> impl Future<Output = Result<CompletedPart, Failure>> + Send;
    /// Completes the upload from its parts; the object's entity tag.
    fn finish_upload(
        &self,
        key: &str,
        upload: &str,
        parts: Vec<CompletedPart>,
    ) -> impl Future<Output = Result<Option<String>, Failure>> + Send;
    fn abort_upload(
        &self,
        key: &str,
        upload: &str,
    ) -> impl Future<Output = Result<(), Failure>> + Send;
    /// Removes the object; done too where there was none.
    fn delete(&self, key: &str) -> impl Future<Output = Result<(), Failure>> + Send;
}

/// The bucket's CORS rules that give its objects the cross-origin
/// headers every answer of the site carries (`routes::EVERY_RESPONSE`),
/// which no object carries itself: S3's `PutBucketCors` document, as
/// `aws s3api put-bucket-cors --cors-configuration` takes it.
pub fn cors_configuration() -> serde_json::Value {
    let header = |name: &str| {
        crate::site::routes::EVERY_RESPONSE
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, value)| *value)
    };
    let listed = |name: &str| -> Vec<String> {
        header(name)
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect())
            .unwrap_or_default()
    };
    serde_json::json!({
        "CORSRules": [{
            "AllowedOrigins": listed("Access-Control-Allow-Origin"),
            "AllowedMethods": ["GET", "HEAD"],
            "AllowedHeaders": ["*"],
            "ExposeHeaders": listed("Access-Control-Expose-Headers"),
            "MaxAgeSeconds": 3600,
        }]
    })
}

/// Writes the record of a publish over the `version` of it this publish
/// read or last wrote (none: there was none, and there must still be
/// none), and keeps the version written. Where another publish wrote it
/// meanwhile, the store refuses the write (`If-Match`, `If-None-Match`)
/// and this one stops: two publishes never record over each other's
/// objects. A store that ignores the conditions (Garage 2.5) writes it
/// regardless.
pub async fn put_record(
    store: &impl Bucket,
    target: &Target,
    path: &str,
    bytes: Vec<u8>,
    version: &mut Option<Version>,
) -> Result<(), PublishError> {
    let condition = match version.take() {
        Some(Version { e_tag: Some(e_tag) }) => Condition::Matches(e_tag),
        Some(Version { e_tag: None }) => Condition::Any,
        None => Condition::Absent,
    };
    let bytes = Bytes::from(bytes);
    let key = target.key(path)?;
    match store
        .put(&key, bytes.clone(), &record_headers(), condition)
        .await
    {
        Ok(e_tag) => {
            *version = Some(Version { e_tag });
            Ok(())
        }
        // Where the record was removed meanwhile, S3 answers a write over
        // its version 404.
        Err(failure) if failure.precondition() || failure.not_found() => {
            // A write the client retried after it had gone through is
            // refused as the second: the record is then this run's own.
            let read = async {
                let Some((meta, body)) = store.get(&key).await? else {
                    return Ok(None);
                };
                use futures_util::TryStreamExt;
                let held: Vec<Bytes> = body.try_collect().await?;
                Ok::<_, Failure>(Some((meta, held.concat())))
            };
            let read = read.await.map_err(|e| failed(target, path, "read", &e))?;
            let Some((meta, _)) = read.filter(|(_, held)| *held == bytes) else {
                return Err(PublishError::Concurrent {
                    url: target.url(path),
                });
            };
            *version = Some(Version::of(&meta));
            Ok(())
        }
        Err(failure) => Err(failed(target, path, "upload", &failure)),
    }
}

/// The version of an object as read, which a write over it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub e_tag: Option<String>,
}

impl Version {
    pub fn of(meta: &Meta) -> Version {
        Version {
            e_tag: meta.e_tag.clone(),
        }
    }
}

/// A record's head's and layers' headers: read by publish alone, never
/// cached.
pub fn record_headers() -> Headers {
    Headers {
        content_type: Some("application/jsonl".to_owned()),
        cache_control: Some("no-store".to_owned()),
    }
}

/// Writes one object whole, with its headers; its entity tag, where the
/// store gives one.
pub async fn put(
    store: &impl Bucket,
    target: &Target,
    path: &str,
    bytes: Vec<u8>,
    headers: &Headers,
) -> Result<Option<String>, PublishError> {
    store
        .put(&target.key(path)?, bytes.into(), headers, Condition::Any)
        .await
        .map_err(|e| failed(target, path, "upload", &e))
}

/// Writes a large object in parts, read from `file` a part at a time; its
/// entity tag, where the store gives one, and the hash of the bytes sent
/// (those the plan hashed only where the file did not change meanwhile).
pub async fn put_large(
    store: &impl Bucket,
    target: &Target,
    path: &str,
    file: &std::path::Path,
    headers: &Headers,
) -> Result<(Option<String>, String), PublishError> {
    use tokio::io::AsyncReadExt;
    let read_error = |source| PublishError::Read {
        path: file.to_owned(),
        source,
    };
    let hasher = std::sync::Mutex::new(blake3::Hasher::new());
    let pieces = futures_util::stream::try_unfold(None, async |opened| {
        let mut opened = match opened {
            Some(opened) => opened,
            None => tokio::fs::File::open(file).await.map_err(read_error)?,
        };
        let mut buffer = vec![0; 1 << 20];
        let read = opened.read(&mut buffer).await.map_err(read_error)?;
        buffer.truncate(read);
        if let Ok(mut hasher) = hasher.lock() {
            hasher.update(&buffer);
        }
        Ok((read > 0).then_some((buffer, Some(opened))))
    });
    let e_tag = put_parts(store, target, path, headers, pieces).await?;
    // No hashing panics: the lock is never poisoned.
    let hasher = hasher
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Ok((e_tag, hasher.finalize().to_hex().to_string()))
}

/// Writes an object from `pieces` as they come: whole where they come to
/// less than a part, else in parts, two in flight at most, so memory
/// stays a few parts an object, whatever its size. Its entity tag, where
/// the store gives one.
pub async fn put_parts(
    store: &impl Bucket,
    target: &Target,
    path: &str,
    headers: &Headers,
    pieces: impl futures_util::Stream<Item = Result<Vec<u8>, PublishError>>,
) -> Result<Option<String>, PublishError> {
    use futures_util::{StreamExt, TryStreamExt};
    let mut pieces = std::pin::pin!(pieces);
    let mut first = Vec::new();
    while first.len() < PART_BYTES {
        match pieces.next().await {
            Some(piece) => first.extend(piece?),
            None => return put(store, target, path, first, headers).await,
        }
    }
    let key = target.key(path)?;
    let upload = store
        .start_upload(&key, headers)
        .await
        .map_err(|e| failed(target, path, "upload", &e))?;
    // The pieces gathered into parts of `PART_BYTES`, the last shorter.
    let parts = futures_util::stream::try_unfold(
        (pieces, first, false),
        async |(mut pieces, mut gathered, mut ended)| {
            while !ended && gathered.len() < PART_BYTES {
                match pieces.next().await {
                    Some(piece) => gathered.extend(piece?),
                    None => ended = true,
                }
            }
            if gathered.is_empty() {
                return Ok(None);
            }
            // The part in a buffer of its own size; the rest kept.
            let part: Vec<u8> = gathered.drain(..gathered.len().min(PART_BYTES)).collect();
            Ok::<_, PublishError>(Some((part, (pieces, gathered, ended))))
        },
    );
    let (key, upload) = (&key, &upload);
    let sent: Result<Vec<CompletedPart>, PublishError> = parts
        .enumerate()
        .map(|(n, part)| async move {
            let number = n as i32 + 1;
            store
                .put_part(key, upload, number, Bytes::from(part?))
                .await
                .map_err(|e| failed(target, path, "upload", &e))
        })
        .buffered(2)
        .try_collect()
        .await;
    let finished = match sent {
        Ok(parts) => store
            .finish_upload(key, upload, parts)
            .await
            .map_err(|e| failed(target, path, "upload", &e)),
        Err(error) => Err(error),
    };
    if finished.is_err() {
        // A multipart upload left open is kept, and billed, by the store.
        let _ = store.abort_upload(key, upload).await;
    }
    finished
}

/// The size of a part of a multipart upload (S3 takes 5 MiB at least).
const PART_BYTES: usize = 8 << 20;

/// The size from which an object is sent in parts.
pub const MULTIPART_FROM: u64 = 16 << 20;

pub async fn delete(store: &impl Bucket, target: &Target, path: &str) -> Result<(), PublishError> {
    store
        .delete(&target.key(path)?)
        .await
        .map_err(|e| failed(target, path, "delete", &e))
}

/// An error of the store, said as what it means for the publisher.
pub(super) fn failed(target: &Target, path: &str, doing: &str, error: &Failure) -> PublishError {
    let mut detail = scrubbed(&error.detail);
    // `aws-config`'s chain found none (`credentials::chain`).
    let unfound = [
        "provided credentials",
        "credential provider",
        "credentials provider",
        "no credentials",
    ]
    .iter()
    .any(|said| detail.contains(said));
    if unfound {
        let profile = std::env::var("AWS_PROFILE").unwrap_or_else(|_| "default".to_owned());
        detail.push_str(&format!(
            " (no key in the environment; the profile `{profile}` gave none)"
        ));
    }
    let help = match error {
        _ if unfound => NO_CREDENTIALS,
        _ if error.code.as_deref() == Some("NoSuchBucket")
            || detail.contains("bucket does not exist") =>
        {
            "the bucket does not exist there: create it, or check the name, --endpoint and --region"
        }
        _ if error.refused() => REFUSED,
        _ if error.status.is_none()
            && (detail.contains("dispatch failure")
                || detail.contains("Connection refused")
                || detail.contains("dns error")
                || detail.contains("timed out")
                || detail.contains("timeout")) =>
        {
            "the store did not answer: check --endpoint (or AWS_ENDPOINT_URL) and the network"
        }
        _ => "run publish again: it sends only what the store does not have yet",
    };
    PublishError::Store {
        what: format!("could not {doing} {}", target.url(path)),
        detail,
        help,
    }
}

const NO_CREDENTIALS: &str = "no credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE to a profile of ~/.aws/credentials or ~/.aws/config (or of the files AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE name)";

const REFUSED: &str = "the store refused the credentials: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the profile, or the role), and that the key may list the bucket (s3:ListBucket) and read, write and delete under the prefix";

/// `text` with every credential blanked out, the environment's and those
/// the profile files gave: a store's error may quote the key it was sent.
pub fn scrubbed(text: &str) -> String {
    let mut text = text.to_owned();
    let from_environment = [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
    ]
    .into_iter()
    .filter_map(|name| std::env::var(name).ok());
    for secret in from_environment.chain(super::credentials::found()) {
        if secret.len() >= 4 {
            text = text.replace(&secret, "[redacted]");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::testing::in_memory;
    use super::*;

    /// A record written over the version this publish read: the next
    /// write goes on from it; where another publish wrote the record
    /// meanwhile, or one appeared where there was none, it stops. Run in
    /// memory, with the S3 API's conditions (Garage, which the publish
    /// tests run, ignores them).
    #[test]
    fn a_record_another_publish_wrote_meanwhile_stops_this_one() {
        in_memory(async |store, target| {
            let record = super::super::record::RECORD;
            let write = async |version: &mut Option<Version>, text: &str| {
                let bytes = text.as_bytes().to_vec();
                put_record(store, target, record, bytes, version).await
            };
            let read = async || super::super::record::read(store, target).await.unwrap();
            let (none, mut mine) = read().await;
            assert!(none.is_none() && mine.is_none());
            write(&mut mine, "{\"publish\":\"mine\"}\n").await.unwrap();
            let (_, mut theirs) = read().await;
            // A write the client sent twice: the second finds its own bytes.
            let mut retried = mine.clone();
            write(&mut mine, "{\"publish\":\"mine\"}\n\n")
                .await
                .unwrap();
            write(&mut retried, "{\"publish\":\"mine\"}\n\n")
                .await
                .unwrap();
            let stopped = write(&mut theirs, "{\"publish\":\"theirs\"}\n")
                .await
                .unwrap_err();
            assert!(
                matches!(stopped, PublishError::Concurrent { ref url } if url == "s3://bucket/site/.ontosite-publish.jsonl"),
                "{stopped}"
            );
            // A record removed meanwhile (S3 answers the write over its
            // version 404).
            let mut removed = mine.clone();
            store.delete(&target.key(record).unwrap()).await.unwrap();
            let stopped = write(&mut removed, "{\"publish\":\"mine\"}\n")
                .await
                .unwrap_err();
            assert!(
                matches!(stopped, PublishError::Concurrent { .. }),
                "{stopped}"
            );
            write(&mut None, "{\"publish\":\"mine\"}\n\n")
                .await
                .unwrap();
            // A record where the publish read none.
            let mut late = None;
            let stopped = write(&mut late, "{\"publish\":\"late\"}\n")
                .await
                .unwrap_err();
            assert!(
                matches!(stopped, PublishError::Concurrent { .. }),
                "{stopped}"
            );
        });
    }

    /// An object sent in pieces reads back as its bytes, whether they
    /// came to less than a part (sent whole) or to several parts; a file
    /// read a piece at a time too.
    #[test]
    fn an_object_sent_in_pieces_is_its_bytes() {
        in_memory(async |store, target| {
            let dir = tempfile::tempdir().unwrap();
            for bytes in [1 << 10, 2 * PART_BYTES + 12_345] {
                let whole: Vec<u8> = (0..bytes).map(|i| (i % 251) as u8).collect();
                let pieces = whole.chunks(1 << 20).map(|piece| Ok(piece.to_vec()));
                let path = format!("parts-{bytes}");
                put_parts(
                    store,
                    target,
                    &path,
                    &record_headers(),
                    futures_util::stream::iter(pieces),
                )
                .await
                .unwrap();
                let file = dir.path().join(&path);
                std::fs::write(&file, &whole).unwrap();
                let large = format!("large-{bytes}");
                let (_, hash) = put_large(store, target, &large, &file, &Headers::default())
                    .await
                    .unwrap();
                assert_eq!(hash, crate::output::objects::hash(&whole));
                for path in [path, large] {
                    let read = store.bytes(&target.key(&path).unwrap()).await;
                    assert!(read == Some(whole.clone()), "{path}");
                }
            }
        });
    }

    #[test]
    fn targets_name_a_bucket_and_a_prefix() {
        let target = Target::parse("s3://my-bucket/sites/pato/").unwrap();
        assert_eq!(target.bucket, "my-bucket");
        assert_eq!(target.prefix, "sites/pato");
        assert_eq!(target.key("a/b.json").unwrap(), "sites/pato/a/b.json");
        assert_eq!(
            Target::parse("s3://my-bucket").unwrap().key("x").unwrap(),
            "x"
        );
        for bad in [
            "my-bucket/x",
            "s3://B/x",
            "s3://ab",
            "s3://bucket/../x",
            "s3://bucket/a//x",
            "s3://bucket//x",
            "s3://bucket/x//",
            "s3://bucket/a\u{1}/x",
            "s3://bucket/a\nb",
            "s3://bucket/a\u{85}b",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
        // Keys are of their own characters.
        let tilde = Target::parse("s3://my-bucket/~me").unwrap();
        assert_eq!(tilde.key("~a b%.json").unwrap(), "~me/~a b%.json");
        assert_eq!(tilde.path_of("~me/~a b%.json").unwrap(), "~a b%.json");
        assert_eq!(tilde.path_of("~mex/a.json"), None);
        assert!(tilde.key("").is_err());
        assert_eq!(Target::parse("s3://my-bucket/").unwrap().under(), "");
    }

    /// No path stands in for another: one that makes no key is refused,
    /// with its characters escaped, and never becomes the prefix's key.
    #[test]
    fn a_path_that_makes_no_key_is_refused() {
        let target = Target::parse("s3://my-bucket/site").unwrap();
        for bad in [
            "a\nb.json",
            "a//b.json",
            "a/./b",
            "x\u{202e}\u{1b}[2J",
            "x\u{202e}//y",
            "",
            "/a",
            "a/",
        ] {
            let error = target.key(bad).unwrap_err().to_string();
            assert!(error.contains("cannot be an object key"), "{error}");
            // One line and its help: the name's own newline escaped.
            let (said, help) = error.split_once("\n  help: ").unwrap();
            assert!(!said.chars().any(char::is_control), "{error:?}");
            assert!(!said.contains('\u{202e}'), "{error:?}");
            assert!(!help.contains('\n'), "{error:?}");
        }
    }

    /// Credentials in a target are refused and never shown; control
    /// characters in it are shown escaped.
    #[test]
    fn a_target_s_credentials_are_never_shown() {
        let error = Target::parse("s3://AKIAEXAMPLE:s3cr3tVALUE@my-bucket/p")
            .unwrap_err()
            .to_string();
        assert!(error.contains("holds credentials"), "{error}");
        assert!(error.contains("s3://[redacted]@my-bucket/p"), "{error}");
        assert!(
            !error.contains("s3cr3tVALUE") && !error.contains("AKIAEXAMPLE"),
            "{error}"
        );
        // A secret with a `/` in it, and targets of other schemes.
        for (target, shown) in [
            (
                "s3://AKIAEXAMPLE:s3cr/3tVALUE@my-bucket/p",
                "s3://[redacted]@my-bucket/p",
            ),
            (
                "S3://AKIAEXAMPLE:s3cr3tVALUE@my-bucket/p",
                "S3://[redacted]@my-bucket/p",
            ),
            (
                "https://AKIAEXAMPLE:s3cr3tVALUE@host/p",
                "https://[redacted]@host/p",
            ),
            (
                "AKIAEXAMPLE:s3cr3tVALUE@my-bucket/p",
                "[redacted]@my-bucket/p",
            ),
        ] {
            let error = Target::parse(target).unwrap_err().to_string();
            assert!(error.contains(shown), "{error}");
            assert!(
                !error.contains("3tVALUE") && !error.contains("AKIAEXAMPLE"),
                "{error}"
            );
        }
        let error = Target::parse("s3://my-bucket/a\u{1b}[31m")
            .unwrap_err()
            .to_string();
        assert!(!error.contains('\u{1b}'), "{error:?}");
    }

    #[test]
    fn the_bucket_s_cors_rules_are_the_site_s_own() {
        let rules = &cors_configuration()["CORSRules"][0];
        assert_eq!(rules["AllowedOrigins"], serde_json::json!(["*"]));
        assert_eq!(rules["ExposeHeaders"], serde_json::json!(["ETag", "Link"]));
    }

    #[test]
    fn an_object_s_type_and_caching_come_from_the_rules() {
        let rules = vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            (
                "Cache-Control".to_owned(),
                "public, max-age=3600".to_owned(),
            ),
        ];
        let given = headers(&rules, "all");
        assert_eq!(given.content_type.as_deref(), Some("application/json"));
        assert_eq!(given.cache_control.as_deref(), Some("public, max-age=3600"));
        let guessed = headers(&[], "ui/site.css");
        assert_eq!(
            guessed.content_type.as_deref(),
            Some("text/css; charset=utf-8")
        );
    }
}

/// A bucket in memory, for the tests of what is built on `Bucket`: its
/// conditions and its answers as S3's.
#[cfg(test)]
pub(super) mod testing {
    use super::*;
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct Memory {
        objects: Mutex<BTreeMap<String, (Bytes, Meta)>>,
        uploads: Mutex<BTreeMap<String, BTreeMap<i32, Bytes>>>,
        written: std::sync::atomic::AtomicU64,
    }

    impl Memory {
        /// The object's bytes; none where there is none.
        pub async fn bytes(&self, key: &str) -> Option<Vec<u8>> {
            let objects = self.objects.lock().unwrap();
            objects.get(key).map(|(bytes, _)| bytes.to_vec())
        }

        fn store(&self, key: &str, bytes: Bytes) -> String {
            let n = self
                .written
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let e_tag = format!("\"{n}\"");
            let meta = Meta {
                key: key.to_owned(),
                e_tag: Some(e_tag.clone()),
                last_modified: Some(SystemTime::now()),
            };
            self.objects
                .lock()
                .unwrap()
                .insert(key.to_owned(), (bytes, meta));
            e_tag
        }
    }

    fn failing(status: u16, code: &str) -> Failure {
        Failure {
            status: Some(status),
            code: Some(code.to_owned()),
            detail: code.to_owned(),
        }
    }

    impl Bucket for Memory {
        async fn get(&self, key: &str) -> Result<Option<(Meta, Body)>, Failure> {
            use futures_util::StreamExt;
            let objects = self.objects.lock().unwrap();
            Ok(objects.get(key).map(|(bytes, meta)| {
                let body = futures_util::stream::iter([Ok(bytes.clone())]).boxed();
                (meta.clone(), body)
            }))
        }

        async fn head(&self, key: &str) -> Result<Option<Meta>, Failure> {
            let objects = self.objects.lock().unwrap();
            Ok(objects.get(key).map(|(_, meta)| meta.clone()))
        }

        async fn reach(&self, _prefix: &str) -> Result<(), Failure> {
            Ok(())
        }

        async fn list(&self, prefix: &str) -> Result<Vec<Meta>, Failure> {
            let objects = self.objects.lock().unwrap();
            Ok(objects
                .iter()
                .filter(|(key, _)| key.starts_with(prefix))
                .map(|(_, (_, meta))| meta.clone())
                .collect())
        }

        async fn put(
            &self,
            key: &str,
            body: Bytes,
            _headers: &Headers,
            condition: Condition,
        ) -> Result<Option<String>, Failure> {
            let held = self
                .objects
                .lock()
                .unwrap()
                .get(key)
                .map(|(_, m)| m.e_tag.clone());
            let held_none = held.is_none();
            let holds = match (&condition, held) {
                (Condition::Any, _) => true,
                (Condition::Absent, held) => held.is_none(),
                (Condition::Matches(e_tag), Some(held)) => held.as_ref() == Some(e_tag),
                (Condition::Matches(_), None) => false,
            };
            match (holds, &condition) {
                (true, _) => {}
                (false, Condition::Matches(_)) if held_none => {
                    return Err(failing(404, "NoSuchKey"));
                }
                (false, _) => return Err(failing(412, "PreconditionFailed")),
            }
            Ok(Some(self.store(key, body)))
        }

        async fn start_upload(&self, key: &str, _headers: &Headers) -> Result<String, Failure> {
            let n = self
                .written
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let upload = format!("{key}#{n}");
            self.uploads
                .lock()
                .unwrap()
                .insert(upload.clone(), BTreeMap::new());
            Ok(upload)
        }

        async fn put_part(
            &self,
            _key: &str,
            upload: &str,
            number: i32,
            body: Bytes,
        ) -> Result<CompletedPart, Failure> {
            let mut uploads = self.uploads.lock().unwrap();
            let parts = uploads
                .get_mut(upload)
                .ok_or_else(|| failing(404, "NoSuchUpload"))?;
            parts.insert(number, body);
            Ok(CompletedPart::builder().part_number(number).build())
        }

        async fn finish_upload(
            &self,
            key: &str,
            upload: &str,
            parts: Vec<CompletedPart>,
        ) -> Result<Option<String>, Failure> {
            let held = self
                .uploads
                .lock()
                .unwrap()
                .remove(upload)
                .ok_or_else(|| failing(404, "NoSuchUpload"))?;
            let mut whole = Vec::new();
            for part in parts {
                let number = part.part_number().unwrap_or_default();
                let bytes = held
                    .get(&number)
                    .ok_or_else(|| failing(400, "InvalidPart"))?;
                whole.extend_from_slice(bytes);
            }
            Ok(Some(self.store(key, whole.into())))
        }

        async fn abort_upload(&self, _key: &str, upload: &str) -> Result<(), Failure> {
            self.uploads.lock().unwrap().remove(upload);
            Ok(())
        }

        async fn delete(&self, key: &str) -> Result<(), Failure> {
            self.objects.lock().unwrap().remove(key);
            Ok(())
        }
    }

    /// Runs `test` on a bucket in memory, under `s3://bucket/site`.
    pub fn in_memory(test: impl AsyncFnOnce(&Memory, &Target)) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let store = Memory::default();
        let target = Target::parse("s3://bucket/site").unwrap();
        runtime.block_on(test(&store, &target));
    }
}
