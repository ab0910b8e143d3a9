# ontosite in a container: a static binary on an empty base, with the CA
# certificates `publish` checks its stores' TLS against.
#
#   docker build -t ontosite .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" ontosite build
#
# The release workflow builds it for linux/amd64 and linux/arm64 and
# pushes it to ghcr.io.

FROM rust:1.95-alpine3.22 AS build
# Alpine keeps only each package's latest build: a pinned one would fail
# the build once replaced. The base image is pinned instead.
# hadolint ignore=DL3018
RUN apk add --no-cache musl-dev ca-certificates
WORKDIR /src
COPY . .
# The commit `ontosite --version` names (no .git is copied in).
ARG ONTOSITE_COMMIT=""
ENV ONTOSITE_COMMIT=$ONTOSITE_COMMIT
# musl links statically: the binary needs nothing of the image.
RUN cargo build --release --locked \
    && cp target/release/ontosite /ontosite \
    && /ontosite --version

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /ontosite /usr/local/bin/ontosite
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/ontosite"]
CMD ["--help"]
