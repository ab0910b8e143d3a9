//! Credentials as the AWS tools find them: the environment's key
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`),
//! else the profile files (`AWS_PROFILE`, `~/.aws/credentials` and
//! `~/.aws/config`, with their `credential_process`, SSO and role
//! profiles), web identity, the container's and the instance's roles,
//! through `aws-config`'s default chain; every key found noted, so that
//! no message shows it.

use aws_credential_types::provider::{self, ProvideCredentials};

/// Every key the chain has found, which no message may show: a store's
/// error can quote the key it was sent (`store::scrubbed`).
static FOUND: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The keys the chain has found so far.
pub fn found() -> Vec<String> {
    FOUND.lock().map(|found| found.clone()).unwrap_or_default()
}

/// `aws-config`'s chain for `region`, its requests (SSO, STS, the
/// instance's metadata) made through `http`; the SDK's client keeps what
/// it finds until shortly before it expires.
pub async fn chain(
    region: &str,
    http: aws_sdk_s3::config::SharedHttpClient,
) -> aws_credential_types::provider::SharedCredentialsProvider {
    let config = aws_config::provider_config::ProviderConfig::without_region()
        .with_http_client(http)
        .with_region(Some(aws_config::Region::new(region.to_owned())));
    let chain = aws_config::default_provider::credentials::DefaultCredentialsChain::builder()
        .region(aws_config::Region::new(region.to_owned()))
        .configure(config)
        .build()
        .await;
    provider::SharedCredentialsProvider::new(Noted(chain))
}

/// The region the profile names, where neither `--region` nor the
/// environment does.
pub async fn profile_region() -> Option<String> {
    let provider = aws_config::profile::ProfileFileRegionProvider::new();
    aws_config::meta::region::ProvideRegion::region(&provider)
        .await
        .map(|r| r.to_string())
}

/// A provider whose every answer is noted in `FOUND`.
#[derive(Debug)]
struct Noted<P>(P);

impl<P: ProvideCredentials> ProvideCredentials for Noted<P> {
    fn provide_credentials<'a>(&'a self) -> provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        provider::future::ProvideCredentials::new(async move {
            let found = self.0.provide_credentials().await?;
            if let Ok(mut secrets) = FOUND.lock() {
                let keys = [found.access_key_id(), found.secret_access_key()];
                for key in keys.into_iter().chain(found.session_token()) {
                    if !secrets.iter().any(|held| held == key) {
                        secrets.push(key.to_owned());
                    }
                }
            }
            Ok(found)
        })
    }
}
