//! Showing inputs: how failure reports and regression-file comments format a value's `Debug`
//! text, bounded in length and in nesting, so that a 100 MB input or one nested a million deep
//! is reported, not turned into 300 MB of text or a stack overflow.
//!
//! Formatting goes through a writer that refuses more than a length limit, and refuses anything
//! once the formatting has used [`MAX_FORMAT_STACK`] bytes of stack below its start. A refused
//! write returns [`fmt::Error`], which derived `Debug` impls pass up at once: each level writes
//! its name or bracket before formatting its fields, so the recursion into a deep value stops
//! at the first level past either limit, and the rest of a long list is skipped unformatted.
//! What is saved to replay a failure (the codec bytes) is never bounded; only what is shown is.

use std::fmt::{self, Write as _};

/// How many bytes of a value's `Debug` text a failure report shows at most
/// ([`format_bounded`]'s usual limit): 64 KiB.
pub const MAX_FORMATTED: usize = 64 * 1024;

/// How much stack formatting one value may use below [`format_bounded`]'s own frame: 256 KiB,
/// an eighth of the 2 MiB a test thread has, and at least several hundred levels of a derived
/// `Debug` (each level costs a few hundred bytes, more in a debug build).
const MAX_FORMAT_STACK: usize = 256 * 1024;

/// `args` formatted, stopped once the text reaches `max_bytes` bytes or the formatting nests
/// too deep (see the [module docs](self)); a stopped text ends with a note saying so. A
/// `Debug` impl that fails by itself ends the text with a note too (where `format!` would
/// panic).
///
/// ```
/// use typefuzz::format_bounded;
/// assert_eq!(format_bounded(100, format_args!("{:?}", (1, "a"))), r#"(1, "a")"#);
///
/// let big = vec![7u8; 100_000_000];
/// let shown = format_bounded(1000, format_args!("{big:?}"));
/// assert!(shown.starts_with("[7, 7, 7"));
/// assert!(shown.ends_with("... (formatting stopped after 1000 bytes)"), "{shown}");
/// assert!(shown.len() < 1100);
/// ```
pub fn format_bounded(max_bytes: usize, args: fmt::Arguments<'_>) -> String {
    let mut out = Bounded {
        text: String::new(),
        max_bytes,
        stack_start: stack_address(),
        stopped: None,
    };
    if out.write_fmt(args).is_err() {
        let note = match out.stopped {
            Some(Stop::Length) => format!("... (formatting stopped after {max_bytes} bytes)"),
            Some(Stop::Depth) => "... (formatting stopped: nested too deep)".to_string(),
            None => "... (formatting failed: a Debug impl returned an error)".to_string(),
        };
        out.text.push_str(&note);
    }
    out.text
}

/// Why a [`Bounded`] writer refused a write.
#[derive(Clone, Copy)]
enum Stop {
    /// The text reached its length limit.
    Length,
    /// The formatting used more than [`MAX_FORMAT_STACK`] of stack.
    Depth,
}

/// A writer of at most `max_bytes` bytes, which refuses every write once it is full or once
/// it is called [`MAX_FORMAT_STACK`] bytes of stack deeper than `stack_start`.
struct Bounded {
    text: String,
    max_bytes: usize,
    stack_start: usize,
    stopped: Option<Stop>,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.stopped.is_some() {
            return Err(fmt::Error);
        }
        if stack_address().abs_diff(self.stack_start) > MAX_FORMAT_STACK {
            self.stopped = Some(Stop::Depth);
            return Err(fmt::Error);
        }
        let room = self.max_bytes - self.text.len();
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut cut = room;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        self.text.push_str(&s[..cut]);
        self.stopped = Some(Stop::Length);
        Err(fmt::Error)
    }
}

/// The address of a local of the calling frame: how deep the stack is, compared with another
/// call's (the stack grows down on the platforms Rust supports, but only the distance counts).
#[inline(never)]
fn stack_address() -> usize {
    let here = 0u8;
    std::hint::black_box(&here) as *const u8 as usize
}

/// Failure messages show inputs up to this many characters whole; longer ones are elided by
/// [`elide`] (the regression file keeps them whole).
pub const MAX_SHOWN: usize = 400;

/// `text`, or its first 200 and last 100 characters around a note of how many were left out
/// when it is longer than [`MAX_SHOWN`] characters: how the drop-ins print a long input in a
/// failure message, whose regression file replays it whole.
///
/// ```
/// use typefuzz::elide;
/// assert_eq!(elide("(1, 2)"), "(1, 2)");
/// let long = format!("[{}]", "7, ".repeat(300));
/// let shown = elide(&long);
/// assert!(shown.starts_with("[7, 7"));
/// assert!(shown.contains(" .. (602 characters elided) .. "));
/// assert!(shown.chars().count() < 400);
/// ```
pub fn elide(text: &str) -> String {
    let chars = text.chars().count();
    if chars <= MAX_SHOWN {
        return text.to_string();
    }
    let (head, tail) = (MAX_SHOWN / 2, MAX_SHOWN / 4);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(chars - tail).collect();
    format!(
        "{start} .. ({} characters elided) .. {end}",
        chars - head - tail
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list nested `depth` deep, whose derived `Debug` recurses once per level; dropped
    /// without recursion (a derived drop of a million boxes overflows the stack too).
    #[derive(Debug)]
    #[allow(dead_code)] // the fields are read by `Debug` only
    enum List {
        Nil,
        Cons(u32, Box<List>),
    }

    struct Deep(List);

    impl Deep {
        fn new(depth: u32) -> Self {
            let mut list = List::Nil;
            for value in 0..depth {
                list = List::Cons(value, Box::new(list));
            }
            Deep(list)
        }
    }

    impl Drop for Deep {
        fn drop(&mut self) {
            let mut next = std::mem::replace(&mut self.0, List::Nil);
            while let List::Cons(_, tail) = next {
                next = *tail;
            }
        }
    }

    /// Runs `f` on a thread with the stack a test thread has by default (2 MiB).
    fn on_a_normal_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(f)
            .unwrap()
            .join()
            .expect("no stack overflow")
    }

    #[test]
    fn a_short_text_is_whole() {
        let text = format_bounded(MAX_FORMATTED, format_args!("{:#?}", Some((1, "é"))));
        assert_eq!(text, format!("{:#?}", Some((1, "é"))));
    }

    #[test]
    fn a_long_text_stops_at_the_limit_on_a_char_boundary() {
        let text = format_bounded(10, format_args!("{:?}", "ééééééé"));
        assert_eq!(text, "\"éééé... (formatting stopped after 10 bytes)");
    }

    #[test]
    fn a_100_mb_input_shows_its_first_64_kib() {
        let big = vec![0xabu8; 100 << 20];
        let text = format_bounded(MAX_FORMATTED, format_args!("{big:?}"));
        assert!(text.starts_with("[171, 171, "));
        let note = "... (formatting stopped after 65536 bytes)";
        assert!(text.ends_with(note), "{}", &text[text.len() - 100..]);
        assert_eq!(text.len(), MAX_FORMATTED + note.len());
    }

    #[test]
    fn a_million_deep_input_is_shown_without_overflowing_the_stack() {
        for pretty in [false, true] {
            let text = on_a_normal_stack(move || {
                let deep = Deep::new(1_000_000);
                if pretty {
                    format_bounded(MAX_FORMATTED, format_args!("{:#?}", deep.0))
                } else {
                    format_bounded(MAX_FORMATTED, format_args!("{:?}", deep.0))
                }
            });
            assert!(text.starts_with("Cons"), "{}", &text[..100]);
            assert!(text.len() <= MAX_FORMATTED + 100);
            assert!(text.ends_with(")"), "{}", &text[text.len() - 100..]);
        }
    }

    #[test]
    fn a_short_name_nested_deep_stops_at_the_stack_bound() {
        // Five bytes a level (`Cons(` without a number would be fewer): 64 KiB of text is
        // more than 10,000 levels, more than a 2 MiB stack holds; the stack bound stops it.
        #[derive(Debug)]
        enum L {
            N,
            C(Box<L>),
        }
        let text = on_a_normal_stack(|| {
            let mut list = L::N;
            for _ in 0..100_000 {
                list = L::C(Box::new(list));
            }
            let text = format_bounded(MAX_FORMATTED, format_args!("{list:?}"));
            // Dropped without recursion.
            let mut next = list;
            while let L::C(tail) = next {
                next = *tail;
            }
            text
        });
        assert!(text.starts_with("C(C(C("));
        assert!(
            text.ends_with("... (formatting stopped: nested too deep)"),
            "{}",
            &text[text.len() - 100..]
        );
    }

    #[test]
    fn a_failing_debug_impl_is_noted_not_a_panic() {
        struct Fails;
        impl fmt::Debug for Fails {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("partial")?;
                Err(fmt::Error)
            }
        }
        assert_eq!(
            format_bounded(100, format_args!("{:?}", Fails)),
            "partial... (formatting failed: a Debug impl returned an error)"
        );
    }
}
