//! The search index's reader ([`ontosite::search::reader`]) behind a small
//! C interface, for WebAssembly: the glue (`assets/search-wasm.js`) hands
//! over bytes and reads bytes back, in the same way in a browser, Deno
//! and workerd. One reader per instance.
//!
//! The calls: [`alloc`] a buffer and write into it; [`open`] the manifest;
//! [`search`] a query string, which answers with a status (the answer's
//! JSON is then the output), or 0 when files are needed (the output is
//! then a JSON array of their paths); [`hand`] each of them over (or
//! say it [`lack`]s) and search again. [`output`] and [`output_len`] say
//! where the output is. A trap leaves the instance unusable: the glue
//! makes a new one.

use ontosite::search::reader::{Fetched, Files, Reader, Unanswered};
use ontosite::site::answers;
use std::cell::RefCell;
use std::collections::HashMap;

/// The files handed over for the search under way, kept until it is
/// answered: the reader may read one twice (two terms, one node) or find
/// it gone from its cache in a later round (a file past the cache's
/// budget, or one evicted by a query of many files). A file the site does
/// not have is handed over as missing (`None`).
#[derive(Default)]
struct Handed(RefCell<HashMap<String, Option<Vec<u8>>>>);

impl Files for Handed {
    fn read(&self, name: &str) -> Fetched {
        match self.0.borrow().get(name) {
            Some(Some(bytes)) => Fetched::Bytes(bytes.clone()),
            Some(None) => Fetched::Missing,
            None => Fetched::Later,
        }
    }
}

#[derive(Default)]
struct State {
    reader: Option<Reader>,
    handed: Handed,
    output: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::default();
}

/// Takes back a buffer [`alloc`] gave out and the caller filled.
///
/// # Safety
/// `ptr` and `len` are a buffer of [`alloc`]'s, given to one call only.
unsafe fn taken(ptr: *mut u8, len: usize) -> Vec<u8> {
    // SAFETY: the caller gives back a buffer `alloc` made with this
    // capacity and filled to it.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// A buffer of `len` bytes for the caller to fill and give to one call.
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = std::mem::ManuallyDrop::new(vec![0u8; len]);
    buffer.as_mut_ptr()
}

/// Opens the index from its manifest (a buffer of [`alloc`]'s, taken):
/// 1 when it opened, 0 when not (the output then says why).
///
/// # Safety
/// `ptr` and `len` are a buffer of [`alloc`]'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn open(ptr: *mut u8, len: usize) -> u32 {
    // SAFETY: as the caller promises.
    let manifest = unsafe { taken(ptr, len) };
    STATE.with_borrow_mut(|state| match Reader::open(&manifest) {
        Ok(reader) => {
            *state = State {
                reader: Some(reader),
                ..State::default()
            };
            1
        }
        Err(error) => {
            state.output = error.to_string().into_bytes();
            0
        }
    })
}

/// Hands over a file the last search needed: its path and its bytes
/// (buffers of [`alloc`]'s, taken).
///
/// # Safety
/// Both are buffers of [`alloc`]'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hand(name: *mut u8, name_len: usize, ptr: *mut u8, len: usize) {
    // SAFETY: as the caller promises.
    let (name, bytes) = unsafe { (taken(name, name_len), taken(ptr, len)) };
    handed(name, Some(bytes));
}

/// Says that a file the last search needed is not in the site (a buffer
/// of [`alloc`]'s, taken): the search then answers 500, naming it.
///
/// # Safety
/// `name` and `name_len` are a buffer of [`alloc`]'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lack(name: *mut u8, name_len: usize) {
    // SAFETY: as the caller promises.
    handed(unsafe { taken(name, name_len) }, None);
}

fn handed(name: Vec<u8>, bytes: Option<Vec<u8>>) {
    let name = String::from_utf8_lossy(&name).into_owned();
    STATE.with_borrow_mut(|state| {
        state.handed.0.borrow_mut().insert(name, bytes);
    });
}

/// Answers a request's query string (a buffer of [`alloc`]'s, taken):
/// the HTTP status, its JSON the output; or 0, the files needed the
/// output; or 500 without an index or with a bad file (the output a
/// problem document).
///
/// # Safety
/// `ptr` and `len` are a buffer of [`alloc`]'s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn search(ptr: *mut u8, len: usize) -> u32 {
    // SAFETY: as the caller promises.
    let query = unsafe { taken(ptr, len) };
    let query = String::from_utf8_lossy(&query);
    STATE.with_borrow_mut(|state| {
        let State {
            reader,
            handed,
            output,
        } = state;
        let Some(reader) = reader else {
            *output = problem("no index is open");
            return 500;
        };
        let answered = answers::respond_to_query(&query, |query| {
            let found = reader.answer(query, handed)?;
            Ok(answers::found_answer(reader.base_url(), query, &found)?)
        });
        // Answered (or refused): what was handed over is done with; the
        // next search asks again for what it needs.
        if !matches!(answered, Err(Needed::Files(_))) {
            handed.0.borrow_mut().clear();
        }
        match answered {
            Ok((status, body)) => {
                *output = body;
                u32::from(status)
            }
            Err(Needed::Files(names)) => {
                *output = serde_json::to_vec(&names).unwrap_or_default();
                0
            }
            Err(Needed::Bad(what)) => {
                *output = problem(&what);
                500
            }
        }
    })
}

/// Where the last call's output starts.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    STATE.with_borrow(|state| state.output.as_ptr())
}

/// How many bytes the last call's output has.
#[unsafe(no_mangle)]
pub extern "C" fn output_len() -> usize {
    STATE.with_borrow(|state| state.output.len())
}

/// Why a search gave no answer: files to fetch, or a bad index.
enum Needed {
    Files(Vec<String>),
    Bad(String),
}

impl From<Unanswered> for Needed {
    fn from(unanswered: Unanswered) -> Needed {
        match unanswered {
            Unanswered::Needs(names) => Needed::Files(names),
            Unanswered::Bad(error) => Needed::Bad(error.to_string()),
        }
    }
}

impl From<serde_json::Error> for Needed {
    fn from(error: serde_json::Error) -> Needed {
        Needed::Bad(error.to_string())
    }
}

/// The problem document of a search that could not be answered.
fn problem(detail: &str) -> Vec<u8> {
    serde_json::to_vec(&answers::problem(500, "Internal Server Error", detail)).unwrap_or_default()
}

/// The reader asks for no randomness; oxrdf's `rand` links this source,
/// which has none (`.cargo/config.toml`).
///
/// # Safety
/// getrandom's contract for a custom backend: `dest` holds `len` bytes.
#[cfg(target_family = "wasm")]
#[unsafe(no_mangle)]
unsafe extern "Rust" fn __getrandom_v03_custom(
    _dest: *mut u8,
    _len: usize,
) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}
