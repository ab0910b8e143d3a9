//! The bucket a site is published to, through `object_store`'s S3 client:
//! where it is, how its answers' headers are set per object, and what its
//! errors mean to a publisher, said without a secret.

use super::PublishError;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::{
    Attribute, Attributes, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload,
    RetryConfig, UpdateVersion,
};
use std::time::Duration;

/// `s3://bucket/prefix`: the bucket and the key prefix the site's paths
/// go under (none: the bucket's root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub bucket: String,
    pub prefix: String,
    /// The key of the prefix itself, under which every key of the site
    /// lies.
    pub prefix_key: object_store::path::Path,
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
        // What the client itself would refuse, refused here, before a
        // key is made of it.
        let prefix_key = object_store::path::Path::parse(prefix)
            .map_err(|e| refused(&e.to_string().escape_debug().to_string()))?;
        Ok(Target {
            bucket: bucket.to_owned(),
            prefix: prefix.to_owned(),
            prefix_key,
        })
    }

    /// The key of the site path `path` (no leading `/`), its characters
    /// as they are: the client encodes them on the wire, and the store
    /// keeps the name a reader asks for (`Path::from` would store `~` as
    /// `%7E`). A path that makes no key of its own (none at all, a `/`
    /// at either end, an empty segment, a control character) is refused:
    /// no other key stands in for it.
    pub fn key(&self, path: &str) -> Result<object_store::path::Path, PublishError> {
        let refused = |why: String| PublishError::Key {
            url: self.url(path),
            why,
        };
        if path.is_empty() || path.starts_with('/') || path.ends_with('/') {
            return Err(refused("it is no file's path in the site".to_owned()));
        }
        if path.chars().any(char::is_control) {
            return Err(refused("it holds a control character".to_owned()));
        }
        let key = match self.prefix.as_str() {
            "" => path.to_owned(),
            prefix => format!("{prefix}/{path}"),
        };
        // The client's message quotes the path as it is.
        object_store::path::Path::parse(key)
            .map_err(|e| refused(e.to_string().escape_debug().to_string()))
    }

    /// The site path of a key under the prefix; none for a key elsewhere.
    pub fn path_of(&self, key: &object_store::path::Path) -> Option<String> {
        let key = key.as_ref();
        let path = match self.prefix.as_str() {
            "" => key,
            prefix => key.strip_prefix(prefix)?.strip_prefix('/')?,
        };
        Some(path.to_owned())
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
fn shown_target(text: &str) -> String {
    let shown = match credentials_end(text) {
        Some(at) => {
            let start = text.find("://").map_or(0, |at| at + 3);
            format!("{}[redacted]{}", &text[..start], &text[at..])
        }
        None => text.to_owned(),
    };
    shown.escape_debug().to_string()
}

/// Where the store is, for stores other than AWS's own.
#[derive(Debug, Clone, Default)]
pub struct Endpoint {
    /// The S3 API's URL (Cloudflare R2, Garage, MinIO, Backblaze B2);
    /// none for AWS's own, or for one the environment names until
    /// `resolved` reads it.
    pub url: Option<String>,
    pub region: Option<String>,
    /// Requests name the bucket in the path, not the host name, as most
    /// stores other than AWS want; the default where `url` is given.
    pub path_style: Option<bool>,
}

impl Endpoint {
    /// The endpoint every request of a publish goes to, objects and
    /// `PutBucketCors` alike, so that both reach one store: the one given,
    /// else the environment's as the AWS SDKs rank them (`endpoint_url`).
    pub fn resolved(&self) -> Endpoint {
        Endpoint {
            url: endpoint_url(self.url.as_deref(), &AmazonS3Builder::from_env()),
            ..self.clone()
        }
    }

    /// Whether requests go over plain HTTP, where bodies are signed: a
    /// store on the local network. AWS's own is HTTPS.
    fn plain_http(&self) -> bool {
        self.url
            .as_deref()
            .and_then(|url| url::Url::parse(url).ok())
            .is_some_and(|url| url.scheme() == "http")
    }
}

/// The bucket, with credentials as the AWS tools find them: the key in
/// the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `AWS_SESSION_TOKEN`), else the profile files, web identity, the
/// container's or the instance's role (`credentials::AwsTools`). With it,
/// the endpoint as the client reads it, its region filled where the
/// client found one, for every other request of the publish to go where
/// the client's go.
pub async fn open(
    target: &Target,
    endpoint: &Endpoint,
) -> Result<(AmazonS3, Endpoint), PublishError> {
    if let Some(value) = std::env::var_os("AWS_UNSIGNED_PAYLOAD") {
        refuse_unsigned_payload(&value.to_string_lossy())?;
    }
    let mut builder = AmazonS3Builder::from_env().with_bucket_name(&target.bucket);
    let mut endpoint = endpoint.clone();
    if std::env::var_os("AWS_ACCESS_KEY_ID").is_none() {
        if endpoint.region.is_none() {
            endpoint.region = super::credentials::AwsTools::profile_region().await;
        }
        let tools = super::credentials::AwsTools::new(endpoint.region.as_deref()).await;
        builder = builder.with_credentials(std::sync::Arc::new(tools));
    }
    let endpoint = &endpoint;
    let plain_http = endpoint.plain_http();
    if let Some(url) = &endpoint.url {
        // Credentials belong in the environment, where no message shows
        // them.
        if url::Url::parse(url).is_ok_and(|u| !u.username().is_empty() || u.password().is_some()) {
            return Err(PublishError::Store {
                what: "the endpoint names a user or a password".to_owned(),
                detail: "credentials in the URL would be shown wherever it is".to_owned(),
                help: "give the endpoint without them, and the key in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
            });
        }
        builder = builder
            .with_endpoint(url)
            .with_config(AmazonS3ConfigKey::S3Endpoint, url)
            .with_allow_http(plain_http);
    }
    if let Some(region) = &endpoint.region {
        builder = builder.with_region(region);
    }
    let path_style = endpoint.path_style.unwrap_or(endpoint.url.is_some());
    // Over TLS, which checks every byte in transit, requests are signed
    // without a SHA-256 of each body (`UNSIGNED-PAYLOAD`, as the AWS SDKs
    // send streamed uploads): hashing every body twice, here and at the
    // store, made a one-entity publish of 20,000 entities 1.3x as long
    // (docs/benchmarks.md). Over plain HTTP bodies are signed.
    // `AWS_UNSIGNED_PAYLOAD` decides, where it is set.
    if std::env::var_os("AWS_UNSIGNED_PAYLOAD").is_none() {
        builder = builder.with_unsigned_payload(!plain_http);
    }
    let mut opened = endpoint.clone();
    opened.region = builder.get_config_value(&AmazonS3ConfigKey::Region);
    opened.path_style = Some(path_style);
    builder = builder
        .with_virtual_hosted_style_request(!path_style)
        // Throttling (503 SlowDown) and dropped connections are retried
        // with backoff; an endpoint that never answers fails in seconds.
        .with_retry(RetryConfig {
            max_retries: 6,
            retry_timeout: Duration::from_secs(60),
            ..RetryConfig::default()
        });
    let store = builder.build().map_err(|e| PublishError::Store {
        what: format!("could not open {}", target.url("")),
        detail: scrubbed(&e.to_string()),
        help: "give the bucket's region (--region) and, for a store other than AWS, its endpoint (--endpoint)",
    })?;
    Ok((store, opened))
}

/// Refuses an `AWS_UNSIGNED_PAYLOAD` the client cannot read as yes or
/// no, by the client's own reading (a builder of nothing else fails with
/// it and builds without it), before anything is asked of the network:
/// else its error would come with the help for a wrong region or
/// endpoint.
fn refuse_unsigned_payload(value: &str) -> Result<(), PublishError> {
    let bare = || {
        AmazonS3Builder::new()
            .with_bucket_name("unsigned-payload")
            .with_region("us-east-1")
    };
    let with_value = bare()
        .with_config(AmazonS3ConfigKey::UnsignedPayload, value)
        .build();
    match with_value.is_err() && bare().build().is_ok() {
        false => Ok(()),
        true => Err(PublishError::Store {
            what: format!("AWS_UNSIGNED_PAYLOAD is `{value}`"),
            detail: "it says neither true nor false".to_owned(),
            help: "set it to true (bodies sent unsigned, their integrity left to TLS) or false (signed), or unset it: bodies are then signed over plain HTTP only",
        }),
    }
}

/// The endpoint requests go to, none for AWS's own: `given`
/// (--endpoint), else the environment's, the S3 one first as in the AWS
/// SDKs (`AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL` or
/// `AWS_ENDPOINT`), any case, as the client itself would read them.
fn endpoint_url(given: Option<&str>, builder: &AmazonS3Builder) -> Option<String> {
    given
        .map(str::to_owned)
        .or_else(|| builder.get_config_value(&AmazonS3ConfigKey::S3Endpoint))
        .or_else(|| builder.get_config_value(&AmazonS3ConfigKey::Endpoint))
}

/// The headers a host would send with the file, as far as an object
/// carries them: its type and caching, from the site's `_headers` rules
/// (the route table's), else its extension's type.
pub fn attributes(headers: &[(String, String)], path: &str) -> Attributes {
    let mut attributes = Attributes::new();
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let content_type = header("Content-Type").unwrap_or_else(|| crate::site::media::of_file(path));
    attributes.insert(Attribute::ContentType, content_type.into());
    if let Some(cache) = crate::site::routes::cache_control(&format!("/{path}"))
        .map(str::to_owned)
        .or_else(|| header("Cache-Control"))
    {
        attributes.insert(Attribute::CacheControl, cache.into());
    }
    attributes
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

/// The CORS rules of `cors_configuration` as S3's `PutBucketCors` takes
/// them: XML, each value escaped.
pub fn cors_xml() -> String {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#,
    );
    let rules = cors_configuration();
    for rule in rules["CORSRules"].as_array().into_iter().flatten() {
        xml.push_str("<CORSRule>");
        for (list, element) in [
            ("AllowedOrigins", "AllowedOrigin"),
            ("AllowedMethods", "AllowedMethod"),
            ("AllowedHeaders", "AllowedHeader"),
            ("ExposeHeaders", "ExposeHeader"),
        ] {
            for value in rule[list].as_array().into_iter().flatten() {
                let value = escape(value.as_str().unwrap_or_default());
                xml.push_str(&format!("<{element}>{value}</{element}>"));
            }
        }
        xml.push_str(&format!(
            "<MaxAgeSeconds>{}</MaxAgeSeconds></CORSRule>",
            rule["MaxAgeSeconds"]
        ));
    }
    xml.push_str("</CORSConfiguration>");
    xml
}

/// The URL of the bucket itself, as the store's S3 client addresses it:
/// in the path (`ENDPOINT/BUCKET`), or by its host name (the endpoint
/// given, else `BUCKET.s3.REGION.amazonaws.com`).
fn bucket_url(target: &Target, endpoint: &Endpoint, region: &str) -> Result<url::Url, String> {
    let path_style = endpoint.path_style.unwrap_or(endpoint.url.is_some());
    let base = endpoint
        .url
        .clone()
        .unwrap_or_else(|| format!("https://s3.{region}.amazonaws.com"));
    let mut url = url::Url::parse(&base).map_err(|e| format!("the endpoint {base}: {e}"))?;
    if path_style {
        let path = format!("{}/{}", url.path().trim_end_matches('/'), target.bucket);
        url.set_path(&path);
    } else if endpoint.url.is_none() {
        let host = url.host_str().unwrap_or_default().to_owned();
        url.set_host(Some(&format!("{}.{host}", target.bucket)))
            .map_err(|e| format!("the bucket's host name: {e}"))?;
    }
    // Else the endpoint names the bucket's own host, as the S3 client
    // takes it.
    url.set_query(Some("cors"));
    Ok(url)
}

/// Sets the bucket's CORS rules (`cors_xml`) with S3's `PutBucketCors`,
/// signed by `object_store`'s own signer with the store's credentials:
/// `object_store` has no call for a bucket's configuration.
pub async fn apply_cors(
    store: &AmazonS3,
    target: &Target,
    endpoint: &Endpoint,
) -> Result<(), PublishError> {
    use base64::Engine;
    use md5::Digest;
    use object_store::client::{ClientOptions, HttpConnector, ReqwestConnector};
    let refused = |detail: String| PublishError::Store {
        what: format!("could not set the CORS rules of s3://{}", target.bucket),
        detail: scrubbed(&detail),
        help: "the key needs s3:PutBucketCORS on the bucket (on R2, an Admin token; or set the rules in the dashboard or with wrangler r2 bucket cors set); or publish without --apply-cors and set the rules printed",
    };
    let region = match endpoint.region.clone() {
        Some(region) => region,
        None => super::credentials::AwsTools::profile_region()
            .await
            .unwrap_or_else(|| "us-east-1".to_owned()),
    };
    let url = bucket_url(target, endpoint, &region).map_err(refused)?;
    let body = cors_xml().into_bytes();
    let md5 = base64::engine::general_purpose::STANDARD.encode(md5::Md5::digest(&body));
    let mut request = http::Request::builder()
        .method(http::Method::PUT)
        .uri(url.as_str())
        .header("Content-Type", "application/xml")
        .header("Content-MD5", md5)
        .body(object_store::client::HttpRequestBody::from(body))
        .map_err(|e| refused(e.to_string()))?;
    let credential = store
        .credentials()
        .get_credential()
        .await
        .map_err(|e| failed(target, "", "sign for", &e))?;
    object_store::aws::AwsAuthorizer::new(&credential, "s3", &region)
        .try_authorize(&mut request, None)
        .map_err(|e| refused(chain(&e)))?;
    let options = ClientOptions::new().with_allow_http(url.scheme() == "http");
    let client = ReqwestConnector::default()
        .connect(&options)
        .map_err(|e| refused(chain(&e)))?;
    let response = client
        .execute(request)
        .await
        .map_err(|e| refused(chain(&e)))?;
    if response.status().is_success() {
        return Ok(());
    }
    let status = response.status();
    let body = response.into_body().bytes().await.unwrap_or_default();
    Err(refused(format!(
        "{status}: {}",
        String::from_utf8_lossy(&body).trim()
    )))
}

/// Writes the record of a publish over the `version` of it this publish
/// read or last wrote (none: there was none, and there must still be
/// none), and keeps the version written. Where another publish wrote it
/// meanwhile, the store refuses the write (`If-Match`, `If-None-Match`)
/// and this one stops: two publishes never record over each other's
/// objects. A store that ignores the conditions (Garage 2.5) writes it
/// regardless.
pub async fn put_record(
    store: &impl ObjectStore,
    target: &Target,
    path: &str,
    bytes: Vec<u8>,
    version: &mut Option<UpdateVersion>,
) -> Result<(), PublishError> {
    let mode = match version.take() {
        Some(read) => PutMode::Update(read),
        None => PutMode::Create,
    };
    let options = PutOptions {
        mode,
        attributes: record_attributes(),
        ..PutOptions::default()
    };
    let bytes = bytes::Bytes::from(bytes);
    let key = target.key(path)?;
    match store
        .put_opts(&key, PutPayload::from(bytes.clone()), options)
        .await
    {
        Ok(written) => {
            *version = Some(UpdateVersion {
                e_tag: written.e_tag,
                version: written.version,
            });
            Ok(())
        }
        Err(
            object_store::Error::Precondition { .. } | object_store::Error::AlreadyExists { .. },
        ) => {
            // A write the client retried after it had gone through is
            // refused as the second: the record is then this run's own.
            let found = store
                .get(&key)
                .await
                .map_err(|e| failed(target, path, "read", &e))?;
            let read = version_of(&found.meta);
            let held = found
                .bytes()
                .await
                .map_err(|e| failed(target, path, "read", &e))?;
            if held != bytes {
                return Err(PublishError::Concurrent {
                    url: target.url(path),
                });
            }
            *version = Some(read);
            Ok(())
        }
        Err(e) => Err(failed(target, path, "upload", &e)),
    }
}

/// A record's head's and layers' attributes: read by publish alone,
/// never cached.
pub fn record_attributes() -> Attributes {
    let mut attributes = Attributes::new();
    attributes.insert(Attribute::ContentType, "application/jsonl".into());
    attributes.insert(Attribute::CacheControl, "no-store".into());
    attributes
}

/// Writes one object whole, with its attributes; its entity tag, where
/// the store gives one.
pub async fn put(
    store: &impl ObjectStore,
    target: &Target,
    path: &str,
    bytes: Vec<u8>,
    attributes: Attributes,
) -> Result<Option<String>, PublishError> {
    let options = PutOptions {
        attributes,
        ..PutOptions::default()
    };
    store
        .put_opts(&target.key(path)?, PutPayload::from(bytes), options)
        .await
        .map(|written| written.e_tag)
        .map_err(|e| failed(target, path, "upload", &e))
}

/// Writes a large object in parts, read from `file` a part at a time; its
/// entity tag, where the store gives one, and the hash of the bytes sent
/// (those the plan hashed only where the file did not change meanwhile).
pub async fn put_large(
    store: &impl ObjectStore,
    target: &Target,
    path: &str,
    file: &std::path::Path,
    attributes: Attributes,
) -> Result<(Option<String>, String), PublishError> {
    use tokio::io::AsyncReadExt;
    let read_error = |source| PublishError::Read {
        path: file.to_owned(),
        source,
    };
    let hasher = std::sync::Mutex::new(blake3::Hasher::new());
    let pieces = futures::stream::try_unfold(None, async |opened| {
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
    let e_tag = put_parts(store, target, path, attributes, pieces).await?;
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
    store: &impl ObjectStore,
    target: &Target,
    path: &str,
    attributes: Attributes,
    pieces: impl futures::Stream<Item = Result<Vec<u8>, PublishError>>,
) -> Result<Option<String>, PublishError> {
    use futures::StreamExt;
    let mut pieces = std::pin::pin!(pieces);
    let mut first = Vec::new();
    while first.len() < PART_BYTES {
        match pieces.next().await {
            Some(piece) => first.extend(piece?),
            None => return put(store, target, path, first, attributes).await,
        }
    }
    let options = object_store::PutMultipartOptions {
        attributes,
        ..Default::default()
    };
    let upload = store
        .put_multipart_opts(&target.key(path)?, options)
        .await
        .map_err(|e| failed(target, path, "upload", &e))?;
    let mut writer = object_store::WriteMultipart::new_with_chunk_size(upload, PART_BYTES);
    writer.write(&first);
    drop(first);
    let sent = async {
        while let Some(piece) = pieces.next().await {
            let piece = piece?;
            writer
                .wait_for_capacity(2)
                .await
                .map_err(|e| failed(target, path, "upload", &e))?;
            writer.write(&piece);
        }
        Ok(())
    }
    .await;
    match sent {
        Ok(()) => writer
            .finish()
            .await
            .map(|written| written.e_tag)
            .map_err(|e| failed(target, path, "upload", &e)),
        Err(error) => {
            // A multipart upload left open is kept, and billed, by the store.
            let _ = writer.abort().await;
            Err(error)
        }
    }
}

/// The size of a part of a multipart upload (S3 takes 5 MiB at least).
const PART_BYTES: usize = 8 << 20;

/// The size from which an object is sent in parts.
pub const MULTIPART_FROM: u64 = 16 << 20;

pub async fn delete(
    store: &impl ObjectStore,
    target: &Target,
    path: &str,
) -> Result<(), PublishError> {
    match store.delete(&target.key(path)?).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(failed(target, path, "delete", &e)),
    }
}

/// An error of the store, said as what it means for the publisher.
pub(super) fn failed(
    target: &Target,
    path: &str,
    doing: &str,
    error: &object_store::Error,
) -> PublishError {
    let mut detail = scrubbed(&chain(error));
    // `aws-config`'s chain found none (`credentials::AwsTools`).
    let unfound = [
        "provided credentials",
        "credential provider",
        "credentials provider",
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
        object_store::Error::Unauthenticated { .. }
        | object_store::Error::PermissionDenied { .. } => REFUSED,
        _ if detail.contains("NoSuchBucket") || detail.contains("bucket does not exist") => {
            "the bucket does not exist there: create it, or check the name, --endpoint and --region"
        }
        _ if detail.contains("InvalidAccessKeyId")
            || detail.contains("SignatureDoesNotMatch")
            || detail.contains("AccessDenied") =>
        {
            REFUSED
        }
        _ if detail.contains("error sending request")
            || detail.contains("Connection refused")
            || detail.contains("dns error")
            || detail.contains("timed out") =>
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

/// An error and its sources, one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = inner.source();
    }
    text
}

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

/// The version of an object as read, which a write over it names.
pub(super) fn version_of(meta: &object_store::ObjectMeta) -> UpdateVersion {
    UpdateVersion {
        e_tag: meta.e_tag.clone(),
        version: meta.version.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::testing::in_memory;
    use super::*;

    /// Bodies go unsigned only where TLS carries them: the endpoint read
    /// as the client will use it, from the flag or from the environment's
    /// S3-only names, whatever its case.
    #[test]
    fn the_endpoint_says_whether_bodies_are_signed() {
        let plain = AmazonS3Builder::new();
        assert_eq!(endpoint_url(None, &plain), None);
        assert!(!Endpoint::default().plain_http());
        let given = |url: &str| Endpoint {
            url: Some(url.to_owned()),
            ..Endpoint::default()
        };
        assert!(given("http://127.0.0.1:3900").plain_http());
        assert!(given("HTTP://127.0.0.1:3900").plain_http());
        assert!(!given("https://account.r2.cloudflarestorage.com").plain_http());
        assert!(!given("not a url").plain_http());
        for key in [AmazonS3ConfigKey::S3Endpoint, AmazonS3ConfigKey::Endpoint] {
            let named = AmazonS3Builder::new().with_config(key, "http://store.local:9000");
            let found = endpoint_url(None, &named);
            assert_eq!(found.as_deref(), Some("http://store.local:9000"));
            let flag = endpoint_url(Some("https://store.example"), &named);
            assert_eq!(flag.as_deref(), Some("https://store.example"));
        }
        // The S3 endpoint wins over the generic one, as in the AWS SDKs.
        let both = AmazonS3Builder::new()
            .with_config(AmazonS3ConfigKey::Endpoint, "https://generic.example")
            .with_config(AmazonS3ConfigKey::S3Endpoint, "http://s3.example");
        assert_eq!(
            endpoint_url(None, &both).as_deref(),
            Some("http://s3.example")
        );
    }

    #[test]
    fn the_cors_rules_in_xml_are_the_json_ones() {
        let xml = cors_xml();
        for element in [
            "<AllowedOrigin>*</AllowedOrigin>",
            "<AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>",
            "<ExposeHeader>ETag</ExposeHeader><ExposeHeader>Link</ExposeHeader>",
            "<MaxAgeSeconds>3600</MaxAgeSeconds>",
        ] {
            assert!(xml.contains(element), "{element} in {xml}");
        }
        assert!(xml.ends_with("</CORSRule></CORSConfiguration>"));
    }

    /// A record written over the version this publish read: the next
    /// write goes on from it; where another publish wrote the record
    /// meanwhile, or one appeared where there was none, it stops. Run on
    /// `object_store`'s in-memory store, whose conditions are the S3
    /// API's (Garage, which the publish tests run, ignores them).
    #[test]
    fn a_record_another_publish_wrote_meanwhile_stops_this_one() {
        in_memory(async |store, target| {
            let record = super::super::record::RECORD;
            let write = async |version: &mut Option<UpdateVersion>, text: &str| {
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
                let attributes = record_attributes();
                put_parts(
                    store,
                    target,
                    &path,
                    attributes,
                    futures::stream::iter(pieces),
                )
                .await
                .unwrap();
                let file = dir.path().join(&path);
                std::fs::write(&file, &whole).unwrap();
                let large = format!("large-{bytes}");
                let (_, hash) = put_large(store, target, &large, &file, Attributes::new())
                    .await
                    .unwrap();
                assert_eq!(hash, crate::output::objects::hash(&whole));
                for path in [path, large] {
                    let read = store.get(&target.key(&path).unwrap()).await.unwrap();
                    assert!(read.bytes().await.unwrap() == whole, "{path}");
                }
            }
        });
    }

    #[test]
    fn targets_name_a_bucket_and_a_prefix() {
        let target = Target::parse("s3://my-bucket/sites/pato/").unwrap();
        assert_eq!(target.bucket, "my-bucket");
        assert_eq!(target.prefix, "sites/pato");
        assert_eq!(
            target.key("a/b.json").unwrap().as_ref(),
            "sites/pato/a/b.json"
        );
        assert_eq!(
            Target::parse("s3://my-bucket")
                .unwrap()
                .key("x")
                .unwrap()
                .as_ref(),
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
        // The prefix itself is a key of its own characters.
        let tilde = Target::parse("s3://my-bucket/~me").unwrap();
        assert_eq!(tilde.prefix_key.as_ref(), "~me");
        assert!(tilde.key("").is_err());
        assert_eq!(
            Target::parse("s3://my-bucket/")
                .unwrap()
                .prefix_key
                .as_ref(),
            ""
        );
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
        let headers = vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            (
                "Cache-Control".to_owned(),
                "public, max-age=3600".to_owned(),
            ),
        ];
        let attributes = attributes(&headers, "all");
        assert_eq!(
            attributes.get(&Attribute::ContentType).map(|v| v.as_ref()),
            Some("application/json")
        );
        assert_eq!(
            attributes.get(&Attribute::CacheControl).map(|v| v.as_ref()),
            Some("public, max-age=3600")
        );
        let guessed = super::attributes(&[], "ui/site.css");
        assert_eq!(
            guessed.get(&Attribute::ContentType).map(|v| v.as_ref()),
            Some("text/css; charset=utf-8")
        );
    }
}
