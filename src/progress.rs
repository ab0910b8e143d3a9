//! A build's progress on a terminal: the phase, the files written of how
//! many, the bytes and the rate, shown once a build has taken a second
//! (a quick build prints only its summary line) and never when standard
//! error is not a terminal (a log or CI gets no control characters).

use indicatif::{HumanBytes, HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use ontosite::build::Progress;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a build runs before its progress shows.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the bar redraws.
const TICK: Duration = Duration::from_millis(200);

/// The progress bar of one build, on standard error.
pub struct Bar {
    bar: ProgressBar,
    /// Steps and bytes of the current phase so far.
    steps: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Bar {
    /// A bar that shows after [`SHOW_AFTER`] if standard error is a
    /// terminal; `None` when it is not, so nothing is drawn or counted.
    pub fn on_terminal() -> Option<Bar> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let (steps, bytes) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let done = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (bar, done) = (bar.clone(), Arc::clone(&done));
            let (steps, bytes) = (Arc::clone(&steps), Arc::clone(&bytes));
            std::thread::spawn(move || {
                let mut shown = false;
                let started = std::time::Instant::now();
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK);
                    if !shown && started.elapsed() >= SHOW_AFTER {
                        bar.set_draw_target(ProgressDrawTarget::stderr());
                        shown = true;
                    }
                    if shown {
                        bar.set_position(steps.load(Ordering::Relaxed));
                        let seconds = bar.elapsed().as_secs_f64().max(0.001);
                        bar.set_message(format!(
                            "{}, {} files/s",
                            HumanBytes(bytes.load(Ordering::Relaxed)),
                            HumanCount((bar.position() as f64 / seconds) as u64)
                        ));
                        bar.tick();
                    }
                }
            })
        };
        Some(Bar {
            bar,
            steps,
            bytes,
            done,
            ticker: Some(ticker),
        })
    }
}

impl Progress for Bar {
    fn phase(&self, name: &str, steps: Option<u64>) {
        let style = match steps {
            Some(_) => ProgressStyle::with_template(
                "{prefix}: [{bar:30}] {human_pos}/{human_len} files, {msg}, {elapsed}",
            ),
            None => ProgressStyle::with_template("{spinner} {prefix}, {elapsed}"),
        }
        .expect("a valid template")
        .progress_chars("=> ");
        self.bar.set_style(style);
        self.bar.set_prefix(name.to_owned());
        self.bar.set_length(steps.unwrap_or(0));
        self.steps.store(0, Ordering::Relaxed);
        self.bytes.store(0, Ordering::Relaxed);
        self.bar.set_position(0);
        self.bar.reset_elapsed();
    }

    /// Two atomic additions: files are written from every thread, and the
    /// bar's own counter takes a lock; the ticker moves the bar.
    fn advance(&self, steps: u64, bytes: u64) {
        self.steps.fetch_add(steps, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }
}

impl Drop for Bar {
    /// Clears the bar, so the summary line stands alone.
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
        self.bar.finish_and_clear();
    }
}

/// Each phase's time, for `--timings`: the phases as they begin, passed on
/// to the progress shown.
pub struct Timings<'a> {
    shown: &'a dyn Progress,
    started: std::time::Instant,
    phases: std::sync::Mutex<Vec<(String, std::time::Instant)>>,
}

impl<'a> Timings<'a> {
    pub fn around(shown: &'a dyn Progress) -> Timings<'a> {
        Timings {
            shown,
            started: std::time::Instant::now(),
            phases: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Each phase and how long it took, until now, then the whole run:
    /// lines for standard error once the bar is cleared.
    pub fn report(self) -> String {
        let ended = std::time::Instant::now();
        let phases = self.phases.into_inner().unwrap_or_else(|e| e.into_inner());
        let ends = phases.iter().skip(1).map(|(_, at)| *at).chain([ended]);
        let mut lines = String::new();
        for ((name, began), end) in phases.iter().zip(ends) {
            let seconds = (end - *began).as_secs_f64();
            lines.push_str(&format!("timings: {seconds:>9.3} s  {name}\n"));
        }
        let seconds = (ended - self.started).as_secs_f64();
        lines.push_str(&format!("timings: {seconds:>9.3} s  in all\n"));
        lines
    }
}

impl Progress for Timings<'_> {
    fn phase(&self, name: &str, steps: Option<u64>) {
        let now = std::time::Instant::now();
        let mut phases = self.phases.lock().unwrap_or_else(|e| e.into_inner());
        // Before the first phase: the run's start, unnamed by the library.
        if phases.is_empty() && now > self.started {
            phases.push(("starting".to_owned(), self.started));
        }
        phases.push((name.to_owned(), now));
        drop(phases);
        self.shown.phase(name, steps);
    }

    fn advance(&self, steps: u64, bytes: u64) {
        self.shown.advance(steps, bytes);
    }
}
