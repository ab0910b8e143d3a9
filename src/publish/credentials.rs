//! Credentials as the AWS tools find them where the environment holds no
//! key: the profile files (`AWS_PROFILE`, `~/.aws/credentials` and
//! `~/.aws/config`, with their `credential_process`, SSO and role
//! profiles), web identity, the container's and the instance's roles,
//! through `aws-config`'s default chain. `object_store` reads the
//! environment and the roles only.

use aws_credential_types::provider::ProvideCredentials;
use object_store::CredentialProvider;
use object_store::aws::AwsCredential;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Every key the chain has found, which no message may show: a store's
/// error can quote the key it was sent (`store::scrubbed`).
static FOUND: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The keys the chain has found so far.
pub fn found() -> Vec<String> {
    FOUND.lock().map(|found| found.clone()).unwrap_or_default()
}

/// Credentials are fetched again this long before they expire.
const EARLY: Duration = Duration::from_secs(300);

/// `aws-config`'s chain for `object_store`, its answer kept until it is
/// about to expire: `object_store` asks once per request, and a
/// `credential_process` would otherwise run once per object.
#[derive(Debug)]
pub struct AwsTools {
    chain: aws_config::default_provider::credentials::DefaultCredentialsChain,
    kept: tokio::sync::Mutex<Option<(Arc<AwsCredential>, Option<SystemTime>)>>,
}

impl AwsTools {
    /// The chain for the region the profile names, or `region`.
    pub async fn new(region: Option<&str>) -> AwsTools {
        let mut builder =
            aws_config::default_provider::credentials::DefaultCredentialsChain::builder();
        if let Some(region) = region {
            builder = builder.region(aws_config::Region::new(region.to_owned()));
        }
        AwsTools {
            chain: builder.build().await,
            kept: tokio::sync::Mutex::new(None),
        }
    }

    /// The region the profile names, where neither `--region` nor
    /// `AWS_REGION` does.
    pub async fn profile_region() -> Option<String> {
        let chain = aws_config::default_provider::region::DefaultRegionChain::builder().build();
        chain.region().await.map(|r| r.to_string())
    }
}

#[async_trait::async_trait]
impl CredentialProvider for AwsTools {
    type Credential = AwsCredential;

    async fn get_credential(&self) -> object_store::Result<Arc<AwsCredential>> {
        let mut kept = self.kept.lock().await;
        if let Some((credential, expiry)) = kept.as_ref()
            && expiry.is_none_or(|at| at > SystemTime::now() + EARLY)
        {
            return Ok(Arc::clone(credential));
        }
        let found =
            self.chain
                .provide_credentials()
                .await
                .map_err(|e| object_store::Error::Generic {
                    store: "S3",
                    source: Box::new(e),
                })?;
        let credential = Arc::new(AwsCredential {
            key_id: found.access_key_id().to_owned(),
            secret_key: found.secret_access_key().to_owned(),
            token: found.session_token().map(str::to_owned),
        });
        if let Ok(mut secrets) = FOUND.lock() {
            secrets.extend(
                [&credential.key_id, &credential.secret_key]
                    .into_iter()
                    .chain(&credential.token)
                    .cloned(),
            );
        }
        *kept = Some((Arc::clone(&credential), found.expiry()));
        Ok(credential)
    }
}
