//! A fence around third-party parsers: a panic inside one (fastobo's
//! `unreachable!`, an index out of range in a reader) becomes a value the
//! reader turns into a diagnostic naming the file, never a crash of ours.
//!
//! The panic is caught with `catch_unwind`; while a guarded call runs on a
//! thread, the panic hook prints nothing for that thread, so a user sees
//! the diagnostic and not a backtrace. Panics elsewhere (our own bugs)
//! still print as they always did.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many guarded calls are running on this thread.
    static GUARDED: Cell<usize> = const { Cell::new(0) };
}

static HOOK: Once = Once::new();

/// What a guarded parser left when it panicked: its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panicked(pub String);

/// Runs `parse`, turning a panic inside it into `Err(Panicked)`.
pub fn guarded<T>(parse: impl FnOnce() -> T) -> Result<T, Panicked> {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(g.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(parse));
    GUARDED.with(|g| g.set(g.get() - 1));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Panicked(message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_inside_becomes_an_error_and_the_thread_goes_on() {
        assert_eq!(guarded(|| 1 + 1), Ok(2));
        let caught = guarded(|| -> u8 { unreachable!("the parser's bug") });
        assert_eq!(
            caught,
            Err(Panicked(
                "internal error: entered unreachable code: the parser's bug".to_owned()
            ))
        );
        // Nested and repeated calls keep the count right.
        assert_eq!(guarded(|| guarded(|| 3)), Ok(Ok(3)));
        assert_eq!(GUARDED.with(Cell::get), 0);
    }
}
