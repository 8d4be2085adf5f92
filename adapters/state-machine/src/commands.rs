//! The genotype's data: a command sequence as the choice bytes proptest's strategies read (see
//! `sequence.rs` for how it is mutated and shrunk, `machine.rs` for how it is replayed), and the
//! fixed padding replay reads past the end of a command's bytes.

use std::fmt;

/// Bytes appended to every choice sequence before it is replayed (see `machine.rs`).
pub(crate) const PADDING: usize = 4096;

/// The padding: a fixed pseudo-random byte sequence (SplitMix64 from a constant seed).
pub(crate) fn padding() -> &'static [u8; PADDING] {
    static PAD: std::sync::OnceLock<[u8; PADDING]> = std::sync::OnceLock::new();
    PAD.get_or_init(|| {
        let mut pad = [0u8; PADDING];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for chunk in pad.chunks_mut(8) {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
        pad
    })
}

/// A command sequence as typefuzz stores, mutates and shrinks it: the choice bytes of the initial
/// state and of each command, in order (described in `sequence.rs`).
///
/// It is the value regression files and corpus directories hold (through the engine's codec), so
/// a saved sequence replays exactly as long as the model's strategies read the same bytes.
///
/// ```
/// use typefuzz::{codec, Context, Mutate};
/// use typefuzz::state_machine::Commands;
/// let mut cx = Context::new(1);
/// let mut commands = Commands::generate(&mut cx);
/// cx.mutate(&mut commands);
/// assert_eq!(codec::from_bytes::<Commands>(&codec::to_bytes(&commands)), commands);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Commands {
    pub(crate) init: Vec<u8>,
    pub(crate) steps: Vec<Vec<u8>>,
}

impl Commands {
    /// The number of commands.
    ///
    /// ```
    /// assert_eq!(typefuzz::state_machine::Commands::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the sequence has no command.
    ///
    /// ```
    /// assert!(typefuzz::state_machine::Commands::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Short hex, because the engine prints the genotype in a few places (regression file comments,
/// hang reports); the adapter's own reports print the decoded commands instead.
impl fmt::Debug for Commands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn hex(bytes: &[u8]) -> String {
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        }
        write!(f, "Commands(init={}", hex(&self.init))?;
        for step in &self.steps {
            write!(f, " {}", hex(step))?;
        }
        f.write_str(")")
    }
}
