//! Integration tests: the real `ontosite` binary on the shipped input and
//! on small fixtures. One test binary, as ripgrep does, so it links once.

mod architecture;
mod bad_input;
mod bounds;
mod browse;
mod browser;
mod build;
mod changes;
mod cli;
mod dereference;
mod front;
mod host_limits;
mod install;
mod linked_data;
mod netlify;
mod ontologies;
mod openapi;
mod output;
mod pages;
mod publish;
mod readme;
mod releases;
mod robust;
mod runtimes;
mod search;
mod serve;
mod serve_robust;
mod siblings;
mod util;
