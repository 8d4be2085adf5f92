//! Text types beside `String`: `Box<str>`, `Rc<str>`, `Arc<str>`, `OsString`, `PathBuf` and
//! `CString`, through a `String` (or, for `CString`, its bytes).
//!
//! # Shrink order
//!
//! `String`'s (shorter, then simpler characters) and `Vec<u8>`'s for `CString`.
//! `OsString` and `PathBuf` hold Unicode text here: one that is not Unicode (built elsewhere)
//! is encoded lossily, with U+FFFD in place of what is not Unicode. A `CString` cannot hold a
//! nul byte: in its representation a 0 reads as 1.

use std::ffi::{CString, OsStr, OsString};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use super::via::via;

/// `Box<str>`, `Rc<str>` and `Arc<str>` dereference to it.
fn str_to(s: &str) -> String {
    String::from(s)
}

via! {
    [] Box<str> => String, str_to, String::into_boxed_str, injective, "Box<str>"
}

via! {
    [] Rc<str> => String, str_to, Rc::from, injective, "Rc<str>"
}

via! {
    [] Arc<str> => String, str_to, Arc::from, injective, "Arc<str>"
}

fn os_string_to(s: &OsStr) -> String {
    s.to_string_lossy().into_owned()
}

via! {
    [] OsString => String, os_string_to, OsString::from, injective, "OsString"
}

fn path_buf_to(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

via! {
    [] PathBuf => String, path_buf_to, PathBuf::from, injective, "PathBuf"
}

fn c_string_to(s: &CString) -> Vec<u8> {
    s.as_bytes().to_vec()
}

/// Total: nul bytes read as 1.
fn c_string_from(mut bytes: Vec<u8>) -> CString {
    for byte in &mut bytes {
        if *byte == 0 {
            *byte = 1;
        }
    }
    CString::new(bytes).unwrap_or_default()
}

via! {
    [] CString => Vec<u8>, c_string_to, c_string_from, normalizing, "CString"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{codec, Context, Mutate};

    #[test]
    fn text_types_round_trip() {
        let path = PathBuf::from("a/b.txt");
        assert_eq!(codec::from_bytes::<PathBuf>(&codec::to_bytes(&path)), path);
        let shared: Arc<str> = Arc::from("héllo");
        assert_eq!(
            codec::from_bytes::<Arc<str>>(&codec::to_bytes(&shared)),
            shared
        );
        let c = CString::new("abc").unwrap();
        assert_eq!(codec::from_bytes::<CString>(&codec::to_bytes(&c)), c);
    }

    #[test]
    fn c_strings_never_hold_nul() {
        let mut cx = Context::new(5);
        let mut c = CString::default();
        for _ in 0..500 {
            cx.mutate(&mut c);
        }
        assert!(!c.as_bytes().contains(&0));
        assert_eq!(codec::from_bytes::<CString>(&[2, 0, 0]).as_bytes(), &[1, 1]);
        let shrunk = CString::new("b").unwrap().shrink(&mut Context::new(1));
        assert_eq!(shrunk[0].as_bytes(), b"");
    }
}
