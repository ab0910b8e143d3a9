//! The AWS SDK's S3 client, the one client of every call publish makes:
//! objects whole and in parts, parts copied within the store (`delta`),
//! conditional writes of the record, listings, removals and the bucket's
//! CORS rules. Where the store is, how requests are signed and what each
//! object is written with come from the flags and the environment, as
//! the AWS tools read them.

use super::PublishError;
use super::store::{Body, Bucket, Condition, Failure, Headers, Meta, Target};
use aws_sdk_s3::config::{RequestChecksumCalculation, ResponseChecksumValidation};
use aws_sdk_s3::types::{ChecksumAlgorithm, CompletedPart, RequestPayer, ServerSideEncryption};
use bytes::Bytes;
use std::time::{Duration, SystemTime};

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
    /// The endpoint every request of a publish goes to: the one given,
    /// else the environment's as the AWS SDKs rank them (`endpoint_url`).
    pub fn resolved(&self) -> Endpoint {
        Endpoint {
            url: endpoint_url(self.url.as_deref(), &|name| std::env::var(name).ok()),
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

/// The endpoint requests go to, none for AWS's own: `given`
/// (--endpoint), else the environment's, the S3 one first as in the AWS
/// SDKs (`AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL`, or the older
/// `AWS_ENDPOINT`).
fn endpoint_url(given: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    given.map(str::to_owned).or_else(|| {
        ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"]
            .iter()
            .find_map(|name| env(name).filter(|url| !url.is_empty()))
    })
}

/// What every object is written with, from the environment: a checksum
/// the store checks, its encryption, who pays. (Its `Debug` shows no key.)
#[derive(Clone, Default)]
struct Written {
    checksum: Option<ChecksumAlgorithm>,
    encryption: Option<ServerSideEncryption>,
    kms_key: Option<String>,
    bucket_key: Option<bool>,
    /// The customer's key (SSE-C), base64, and its MD5, base64.
    customer_key: Option<(String, String)>,
    request_payer: Option<RequestPayer>,
}

impl std::fmt::Debug for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Written")
            .field("checksum", &self.checksum)
            .field("encryption", &self.encryption)
            .field("kms_key", &self.kms_key)
            .field("bucket_key", &self.bucket_key)
            .field(
                "customer_key",
                &self.customer_key.as_ref().map(|_| "[redacted]"),
            )
            .field("request_payer", &self.request_payer)
            .finish()
    }
}

impl Written {
    fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Written, PublishError> {
        let refused = |name: &str, value: &str, help: &'static str| PublishError::Store {
            what: format!("{name} is `{}`", value.escape_debug()),
            detail: "ontosite cannot write objects so".to_owned(),
            help,
        };
        let mut written = Written::default();
        if let Some(value) = env("AWS_CHECKSUM_ALGORITHM") {
            let upper = value.to_ascii_uppercase();
            if !ChecksumAlgorithm::values().contains(&upper.as_str()) {
                return Err(refused(
                    "AWS_CHECKSUM_ALGORITHM",
                    &value,
                    "name one of crc32, crc32c, crc64nvme, sha1 and sha256, or unset it",
                ));
            }
            written.checksum = Some(ChecksumAlgorithm::from(upper.as_str()));
        }
        if let Some(value) = env("AWS_SERVER_SIDE_ENCRYPTION") {
            if value.eq_ignore_ascii_case("sse-c") {
                let key = env("AWS_SSE_CUSTOMER_KEY_BASE64").unwrap_or_default();
                let md5 = aws_smithy_types::base64::decode(&key)
                    .ok()
                    .filter(|bytes| bytes.len() == 32)
                    .map(|bytes| {
                        use md5::Digest;
                        aws_smithy_types::base64::encode(md5::Md5::digest(&bytes))
                    })
                    .ok_or_else(|| {
                        refused(
                            "AWS_SSE_CUSTOMER_KEY_BASE64",
                            "[redacted]",
                            "with AWS_SERVER_SIDE_ENCRYPTION=sse-c, give a 256-bit key in base64",
                        )
                    })?;
                written.customer_key = Some((key, md5));
            } else {
                if !ServerSideEncryption::values().contains(&value.as_str()) {
                    return Err(refused(
                        "AWS_SERVER_SIDE_ENCRYPTION",
                        &value,
                        "name AES256, aws:kms, aws:kms:dsse or sse-c, or unset it",
                    ));
                }
                written.encryption = Some(ServerSideEncryption::from(value.as_str()));
            }
        }
        // A KMS key and the bucket key mean something only with KMS's
        // encryption, and S3 refuses them beside any other: elsewhere
        // they are left out, as the AWS CLI leaves them.
        let kms = matches!(
            written.encryption,
            Some(ServerSideEncryption::AwsKms | ServerSideEncryption::AwsKmsDsse)
        );
        written.kms_key = env("AWS_SSE_KMS_KEY_ID").filter(|_| kms);
        if let Some(value) = env("AWS_SSE_BUCKET_KEY_ENABLED").filter(|_| kms) {
            written.bucket_key = Some(truth(&value).ok_or_else(|| {
                refused(
                    "AWS_SSE_BUCKET_KEY_ENABLED",
                    &value,
                    "set it to true or false, or unset it",
                )
            })?);
        }
        if let Some(value) = env("AWS_REQUEST_PAYER") {
            let said = value
                .trim()
                .eq_ignore_ascii_case("requester")
                .then_some(true);
            let pays = said.or_else(|| truth(&value)).ok_or_else(|| {
                refused(
                    "AWS_REQUEST_PAYER",
                    &value,
                    "set it to true (the requester pays) or false, or unset it",
                )
            })?;
            written.request_payer = pays.then_some(RequestPayer::Requester);
        }
        Ok(written)
    }
}

/// A yes or a no as the AWS tools' settings say them.
fn truth(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// `request` with the customer's encryption key, where objects are
/// encrypted with one (SSE-C): every call that writes or reads an
/// object's bytes names it, under the same names in every request.
macro_rules! customer_keyed {
    ($request:expr, $written:expr) => {{
        let request = $request;
        match &$written.customer_key {
            Some((key, md5)) => request
                .sse_customer_algorithm("AES256")
                .sse_customer_key(key)
                .sse_customer_key_md5(md5),
            None => request,
        }
    }};
}

/// `request`, which makes an object (`PutObject`,
/// `CreateMultipartUpload`), with its headers and all that `Written`
/// asks of every object.
macro_rules! written_with {
    ($request:expr, $written:expr, $headers:expr) => {{
        let written: &Written = $written;
        let request = $request
            .set_content_type($headers.content_type.clone())
            .set_cache_control($headers.cache_control.clone())
            .set_checksum_algorithm(written.checksum.clone())
            .set_server_side_encryption(written.encryption.clone())
            .set_ssekms_key_id(written.kms_key.clone())
            .set_bucket_key_enabled(written.bucket_key)
            .set_request_payer(written.request_payer.clone());
        customer_keyed!(request, written)
    }};
}

/// A part of a multipart upload as `CompleteMultipartUpload` names it:
/// its number, the entity tag the store answered the part sent with, and
/// the checksum of the algorithm the upload was made with, none other.
fn completed_part(
    number: i32,
    part: &aws_sdk_s3::operation::upload_part::UploadPartOutput,
    algorithm: Option<&ChecksumAlgorithm>,
) -> CompletedPart {
    let checksum = |which: ChecksumAlgorithm, value: Option<&str>| {
        value
            .filter(|_| algorithm == Some(&which))
            .map(str::to_owned)
    };
    CompletedPart::builder()
        .part_number(number)
        .set_e_tag(part.e_tag().map(str::to_owned))
        .set_checksum_crc32(checksum(ChecksumAlgorithm::Crc32, part.checksum_crc32()))
        .set_checksum_crc32_c(checksum(ChecksumAlgorithm::Crc32C, part.checksum_crc32_c()))
        .set_checksum_crc64_nvme(checksum(
            ChecksumAlgorithm::Crc64Nvme,
            part.checksum_crc64_nvme(),
        ))
        .set_checksum_sha1(checksum(ChecksumAlgorithm::Sha1, part.checksum_sha1()))
        .set_checksum_sha256(checksum(ChecksumAlgorithm::Sha256, part.checksum_sha256()))
        .build()
}

/// The bucket through the SDK's client.
#[derive(Debug, Clone)]
pub struct S3 {
    client: aws_sdk_s3::Client,
    bucket: String,
    /// Bodies sent without their SHA-256 in the signature.
    unsigned: bool,
    written: Written,
}

/// The bucket of `target` at `endpoint`, with credentials as the AWS
/// tools find them (`credentials::chain`).
pub async fn open(target: &Target, endpoint: &Endpoint) -> Result<S3, PublishError> {
    let env = |name: &str| std::env::var(name).ok();
    let written = Written::from_env(&env)?;
    let mut opened = endpoint.clone();
    if let Some(url) = &opened.url {
        // Credentials belong in the environment, where no message shows
        // them.
        let parsed = url::Url::parse(url).map_err(|e| PublishError::Store {
            what: format!(
                "the endpoint `{}` is no URL",
                super::store::shown_target(url)
            ),
            detail: e.to_string(),
            help: "give the S3 API's URL, as https://HOST[:PORT]",
        })?;
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(PublishError::Store {
                what: "the endpoint names a user or a password".to_owned(),
                detail: "credentials in the URL would be shown wherever it is".to_owned(),
                help: "give the endpoint without them, and the key in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
            });
        }
    }
    let plain_http = opened.plain_http();
    // Over TLS, which checks every byte in transit, requests are signed
    // without a SHA-256 of each body (`UNSIGNED-PAYLOAD`, as the AWS SDKs
    // send streamed uploads): hashing every body twice, here and at the
    // store, made a one-entity publish of 20,000 entities 1.3x as long
    // (docs/benchmarks.md). Over plain HTTP bodies are signed.
    // `AWS_UNSIGNED_PAYLOAD` decides, where it is set.
    let unsigned = match env("AWS_UNSIGNED_PAYLOAD") {
        None => !plain_http,
        Some(value) => truth(&value).ok_or_else(|| PublishError::Store {
            what: format!("AWS_UNSIGNED_PAYLOAD is `{}`", value.escape_debug()),
            detail: "it says neither true nor false".to_owned(),
            help: "set it to true (bodies sent unsigned, their integrity left to TLS) or false (signed), or unset it: bodies are then signed over plain HTTP only",
        })?,
    };
    let region = match opened.region.clone() {
        Some(region) => region,
        None => match env("AWS_REGION").or_else(|| env("AWS_DEFAULT_REGION")) {
            Some(region) => region,
            None => super::credentials::profile_region()
                .await
                .unwrap_or_else(|| "us-east-1".to_owned()),
        },
    };
    opened.region = Some(region.clone());
    let path_style = opened.path_style.unwrap_or(opened.url.is_some());
    opened.path_style = Some(path_style);
    let http = https_client();
    let credentials = super::credentials::chain(&region, http.clone()).await;
    let timeouts = aws_sdk_s3::config::timeout::TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(300))
        .build();
    let mut config = aws_sdk_s3::config::Builder::new()
        .behavior_version(aws_sdk_s3::config::BehaviorVersion::latest())
        .http_client(http)
        .region(aws_sdk_s3::config::Region::new(region))
        .credentials_provider(credentials)
        .force_path_style(path_style)
        // No checksum the store was not asked for: stores other than
        // AWS's take none, or other ones.
        .request_checksum_calculation(RequestChecksumCalculation::WhenRequired)
        .response_checksum_validation(ResponseChecksumValidation::WhenRequired)
        // Throttling (503 SlowDown) and dropped connections are retried
        // with backoff; an endpoint that never answers fails in seconds.
        .retry_config(
            aws_sdk_s3::config::retry::RetryConfig::standard()
                .with_max_attempts(7)
                .with_initial_backoff(Duration::from_millis(200))
                .with_max_backoff(Duration::from_secs(10)),
        )
        // Credentials are fetched again five minutes before they
        // expire, so a `credential_process` runs once a publish.
        .identity_cache(
            aws_sdk_s3::config::IdentityCache::lazy()
                .buffer_time(Duration::from_secs(300))
                // A `credential_process` may wait for a person (an MFA
                // prompt, a password manager).
                .load_timeout(Duration::from_secs(120))
                .build(),
        )
        .timeout_config(timeouts);
    if let Some(url) = &opened.url {
        config = config.endpoint_url(url);
    }
    Ok(S3 {
        client: aws_sdk_s3::Client::from_conf(config.build()),
        bucket: target.bucket.clone(),
        unsigned,
        written,
    })
}

/// The one HTTPS client of a publish, the SDK's and the credential
/// providers', on rustls with ring, through the proxy the environment
/// names (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`), as curl and the AWS
/// CLI go.
pub fn https_client() -> aws_sdk_s3::config::SharedHttpClient {
    use aws_smithy_http_client::{Connector, proxy::ProxyConfig, tls};
    let proxy = ProxyConfig::from_env();
    aws_smithy_http_client::Builder::new().build_with_connector_fn(move |settings, components| {
        let mut builder = Connector::builder().proxy_config(proxy.clone());
        builder.set_connector_settings(settings.cloned());
        if let Some(components) = components {
            builder.set_sleep_impl(components.sleep_impl());
        }
        builder
            .tls_provider(tls::Provider::Rustls(
                tls::rustls_provider::CryptoMode::Ring,
            ))
            .build()
    })
}

impl S3 {
    /// The SDK's client, for the calls only S3 has (`delta`'s copies).
    pub fn client(&self) -> &aws_sdk_s3::Client {
        &self.client
    }

    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// Whether parts can be copied within the store: not where objects
    /// are encrypted with the customer's key, which a copy would have to
    /// read the source with as well, nor where each part carries a
    /// checksum, which not every store answers a copy with.
    pub fn copies(&self) -> bool {
        self.written.customer_key.is_none() && self.written.checksum.is_none()
    }

    /// Who pays for a request, where the environment says the requester.
    pub fn request_payer(&self) -> Option<RequestPayer> {
        self.written.request_payer.clone()
    }

    /// Sets the bucket's CORS rules (`store::cors_configuration`) with
    /// S3's `PutBucketCors`.
    pub async fn apply_cors(&self, target: &Target) -> Result<(), PublishError> {
        use aws_sdk_s3::types::{CorsConfiguration, CorsRule};
        let refused = |detail: String| PublishError::Store {
            what: format!("could not set the CORS rules of s3://{}", target.bucket),
            detail: super::store::scrubbed(&detail),
            help: "the key needs s3:PutBucketCORS on the bucket (on R2, an Admin token; or set the rules in the dashboard or with wrangler r2 bucket cors set); or publish without --apply-cors and set the rules printed",
        };
        let rules = super::store::cors_configuration();
        let listed = |rule: &serde_json::Value, name: &str| -> Option<Vec<String>> {
            let values = rule[name].as_array()?;
            Some(
                values
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
            )
        };
        let mut configuration = CorsConfiguration::builder();
        for rule in rules["CORSRules"].as_array().into_iter().flatten() {
            let built = CorsRule::builder()
                .set_allowed_origins(listed(rule, "AllowedOrigins"))
                .set_allowed_methods(listed(rule, "AllowedMethods"))
                .set_allowed_headers(listed(rule, "AllowedHeaders"))
                .set_expose_headers(listed(rule, "ExposeHeaders"))
                .set_max_age_seconds(rule["MaxAgeSeconds"].as_i64().map(|s| s as i32))
                .build()
                .map_err(|e| refused(e.to_string()))?;
            configuration = configuration.cors_rules(built);
        }
        let configuration = configuration.build().map_err(|e| refused(e.to_string()))?;
        self.client
            .put_bucket_cors()
            .bucket(&self.bucket)
            .cors_configuration(configuration)
            .send()
            .await
            .map(|_| ())
            .map_err(|e| refused(sdk_error(&e)))
    }
}

impl Bucket for S3 {
    async fn get(&self, key: &str) -> Result<Option<(Meta, Body)>, Failure> {
        use futures_util::StreamExt;
        let request = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .set_request_payer(self.request_payer());
        let read = match customer_keyed!(request, self.written).send().await {
            Ok(read) => read,
            Err(error) => return none_if_not_found(failure(error)),
        };
        let meta = meta_of(key, read.e_tag(), read.last_modified());
        let body = futures_util::stream::try_unfold(read.body, async |mut body| {
            match body.try_next().await {
                Ok(Some(bytes)) => Ok(Some((bytes, body))),
                Ok(None) => Ok(None),
                Err(error) => Err(Failure::other(sdk_error(&error))),
            }
        });
        Ok(Some((meta, body.boxed())))
    }

    async fn head(&self, key: &str) -> Result<Option<Meta>, Failure> {
        let request = self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(key)
            .set_request_payer(self.request_payer());
        match customer_keyed!(request, self.written).send().await {
            Ok(head) => Ok(Some(meta_of(key, head.e_tag(), head.last_modified()))),
            Err(error) => none_if_not_found(failure(error)),
        }
    }

    async fn reach(&self, prefix: &str) -> Result<(), Failure> {
        self.client
            .list_objects_v2()
            .bucket(&self.bucket)
            .prefix(prefix)
            .delimiter("/")
            .max_keys(1)
            .set_request_payer(self.request_payer())
            .send()
            .await
            .map(|_| ())
            .map_err(failure)
    }

    async fn list(&self, prefix: &str) -> Result<Vec<Meta>, Failure> {
        let mut listed = Vec::new();
        let mut token = None;
        loop {
            let page = self
                .client
                .list_objects_v2()
                .bucket(&self.bucket)
                .prefix(prefix)
                .set_request_payer(self.request_payer())
                .set_continuation_token(token.clone())
                .send()
                .await
                .map_err(failure)?;
            listed.extend(page.contents().iter().map(|object| {
                meta_of(
                    object.key().unwrap_or_default(),
                    object.e_tag(),
                    object.last_modified(),
                )
            }));
            // A store that answers the same token again would list forever.
            match page.next_continuation_token() {
                Some(next)
                    if page.is_truncated() == Some(true) && token.as_deref() != Some(next) =>
                {
                    token = Some(next.to_owned())
                }
                _ => return Ok(listed),
            }
        }
    }

    async fn put(
        &self,
        key: &str,
        body: Bytes,
        headers: &Headers,
        condition: Condition,
    ) -> Result<Option<String>, Failure> {
        let request = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .body(body.into());
        let request = written_with!(request, &self.written, headers);
        let request = match condition {
            Condition::Any => request,
            Condition::Absent => request.if_none_match("*"),
            Condition::Matches(e_tag) => request.if_match(e_tag),
        };
        let sent = match self.unsigned {
            true => request.customize().disable_payload_signing().send().await,
            false => request.send().await,
        };
        sent.map(|put| put.e_tag().map(str::to_owned))
            .map_err(failure)
    }

    async fn start_upload(&self, key: &str, headers: &Headers) -> Result<String, Failure> {
        let request = self
            .client
            .create_multipart_upload()
            .bucket(&self.bucket)
            .key(key);
        let request = written_with!(request, &self.written, headers);
        let created = request.send().await.map_err(failure)?;
        created
            .upload_id()
            .map(str::to_owned)
            .ok_or_else(|| Failure::other("the store named no upload".to_owned()))
    }

    async fn put_part(
        &self,
        key: &str,
        upload: &str,
        number: i32,
        body: Bytes,
    ) -> Result<CompletedPart, Failure> {
        let request = self
            .client
            .upload_part()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(upload)
            .part_number(number)
            .body(body.into())
            .set_checksum_algorithm(self.written.checksum.clone())
            .set_request_payer(self.written.request_payer.clone());
        let request = customer_keyed!(request, self.written);
        let sent = match self.unsigned {
            true => request.customize().disable_payload_signing().send().await,
            false => request.send().await,
        };
        let part = sent.map_err(failure)?;
        Ok(completed_part(
            number,
            &part,
            self.written.checksum.as_ref(),
        ))
    }

    async fn finish_upload(
        &self,
        key: &str,
        upload: &str,
        parts: Vec<CompletedPart>,
    ) -> Result<Option<String>, Failure> {
        let request = self
            .client
            .complete_multipart_upload()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(upload)
            .set_request_payer(self.written.request_payer.clone())
            .multipart_upload(
                aws_sdk_s3::types::CompletedMultipartUpload::builder()
                    .set_parts(Some(parts))
                    .build(),
            );
        let request = customer_keyed!(request, self.written);
        let completed = request.send().await.map_err(failure)?;
        Ok(completed.e_tag().map(str::to_owned))
    }

    async fn abort_upload(&self, key: &str, upload: &str) -> Result<(), Failure> {
        self.client
            .abort_multipart_upload()
            .bucket(&self.bucket)
            .key(key)
            .upload_id(upload)
            .set_request_payer(self.written.request_payer.clone())
            .send()
            .await
            .map(|_| ())
            .map_err(failure)
    }

    async fn delete(&self, key: &str) -> Result<(), Failure> {
        let deleted = self
            .client
            .delete_object()
            .bucket(&self.bucket)
            .key(key)
            .set_request_payer(self.written.request_payer.clone())
            .send()
            .await;
        match deleted.map_err(failure) {
            Ok(_) => Ok(()),
            Err(failure) if failure.not_found() => Ok(()),
            Err(failure) => Err(failure),
        }
    }
}

/// What an object's read, head or listing says of it.
fn meta_of(
    key: &str,
    e_tag: Option<&str>,
    last_modified: Option<&aws_sdk_s3::primitives::DateTime>,
) -> Meta {
    Meta {
        key: key.to_owned(),
        e_tag: e_tag.map(str::to_owned),
        last_modified: last_modified.and_then(|at| SystemTime::try_from(*at).ok()),
    }
}

fn none_if_not_found<T>(failure: Failure) -> Result<Option<T>, Failure> {
    match failure.not_found() {
        true => Ok(None),
        false => Err(failure),
    }
}

/// A failure of the SDK's: its status, its code and what it says.
pub fn failure<E>(
    error: aws_sdk_s3::error::SdkError<E, aws_sdk_s3::config::http::HttpResponse>,
) -> Failure
where
    E: aws_sdk_s3::error::ProvideErrorMetadata + std::error::Error + 'static,
{
    use aws_sdk_s3::error::ProvideErrorMetadata;
    Failure {
        status: error.raw_response().map(|r| r.status().as_u16()),
        code: error.code().map(str::to_owned),
        detail: super::store::scrubbed(&sdk_error(&error)),
    }
}

/// An SDK error with its sources, one line (its `Display` alone says
/// only "service error"), each said once, none in Rust's debugging form.
pub fn sdk_error(error: &dyn std::error::Error) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies go unsigned only where TLS carries them: the endpoint read
    /// from the flag, else from the environment's names, the S3 one
    /// first.
    #[test]
    fn the_endpoint_says_whether_bodies_are_signed() {
        let none = |_: &str| None;
        assert_eq!(endpoint_url(None, &none), None);
        assert!(!Endpoint::default().plain_http());
        let given = |url: &str| Endpoint {
            url: Some(url.to_owned()),
            ..Endpoint::default()
        };
        assert!(given("http://127.0.0.1:3900").plain_http());
        assert!(given("HTTP://127.0.0.1:3900").plain_http());
        assert!(!given("https://account.r2.cloudflarestorage.com").plain_http());
        assert!(!given("not a url").plain_http());
        for name in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"] {
            let named = |n: &str| (n == name).then(|| "http://store.local:9000".to_owned());
            let found = endpoint_url(None, &named);
            assert_eq!(found.as_deref(), Some("http://store.local:9000"));
            let flag = endpoint_url(Some("https://store.example"), &named);
            assert_eq!(flag.as_deref(), Some("https://store.example"));
        }
        // The S3 endpoint wins over the generic one, as in the AWS SDKs.
        let both = |n: &str| match n {
            "AWS_ENDPOINT_URL" => Some("https://generic.example".to_owned()),
            "AWS_ENDPOINT_URL_S3" => Some("http://s3.example".to_owned()),
            _ => None,
        };
        assert_eq!(
            endpoint_url(None, &both).as_deref(),
            Some("http://s3.example")
        );
    }

    /// What objects are written with is read from the environment as the
    /// AWS tools name it, and a value that says nothing is refused with
    /// what to set instead.
    #[test]
    fn what_objects_are_written_with_comes_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let written = Written::from_env(&env(&[
            ("AWS_CHECKSUM_ALGORITHM", "crc64nvme"),
            ("AWS_SERVER_SIDE_ENCRYPTION", "aws:kms"),
            ("AWS_SSE_BUCKET_KEY_ENABLED", "true"),
            ("AWS_REQUEST_PAYER", "true"),
        ]))
        .unwrap();
        assert_eq!(written.checksum, Some(ChecksumAlgorithm::Crc64Nvme));
        assert_eq!(written.encryption, Some(ServerSideEncryption::AwsKms));
        assert_eq!(written.bucket_key, Some(true));
        assert_eq!(written.request_payer, Some(RequestPayer::Requester));
        // A KMS key beside no KMS encryption is left out, as S3 would
        // refuse it; the AWS CLI's word for who pays is taken.
        let plain = Written::from_env(&env(&[
            ("AWS_SSE_KMS_KEY_ID", "arn:aws:kms:key"),
            ("AWS_SSE_BUCKET_KEY_ENABLED", "true"),
            ("AWS_REQUEST_PAYER", "requester"),
        ]))
        .unwrap();
        assert_eq!((plain.kms_key, plain.bucket_key), (None, None));
        assert_eq!(plain.request_payer, Some(RequestPayer::Requester));
        // A 256-bit key of zeros, and its MD5 as S3 wants it.
        let keyed = Written::from_env(&env(&[
            ("AWS_SERVER_SIDE_ENCRYPTION", "sse-c"),
            (
                "AWS_SSE_CUSTOMER_KEY_BASE64",
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            ),
        ]))
        .unwrap();
        assert!(!format!("{keyed:?}").contains("AAAAAAAA"), "{keyed:?}");
        let (_, md5) = keyed.customer_key.unwrap();
        assert_eq!(md5, "cLyPS3KoaSFGi/joRB3OUQ==");
        for (name, value) in [
            ("AWS_CHECKSUM_ALGORITHM", "md4"),
            ("AWS_SERVER_SIDE_ENCRYPTION", "rot13"),
            ("AWS_SERVER_SIDE_ENCRYPTION", "sse-kms"),
            ("AWS_REQUEST_PAYER", "someone"),
        ] {
            let pairs: &'static [(&str, &str)] = Box::leak(Box::new([(name, value)]));
            let error = Written::from_env(&env(pairs)).unwrap_err().to_string();
            assert!(error.contains(name) && error.contains("help:"), "{error}");
        }
        let error = Written::from_env(&env(&[
            ("AWS_SERVER_SIDE_ENCRYPTION", "sse-c"),
            ("AWS_SSE_CUSTOMER_KEY_BASE64", "c2VjcmV0"),
        ]))
        .unwrap_err()
        .to_string();
        assert!(!error.contains("c2VjcmV0"), "{error}");
    }
}
