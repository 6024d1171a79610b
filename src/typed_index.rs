//! Typed indices: a newtype over `usize` per kind of thing indexed (ops, layers, stages), so that
//! an op index cannot be passed where a stage index is meant (as Cranelift's entity references
//! do). They serialize as the bare number, so reports and attributes read as before.

/// Declares `pub struct $name(usize)` with `new`, `index`, ordering, hashing, `Display` (the
/// number) and transparent serde.
macro_rules! typed_index {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(usize);

        impl $name {
            pub const fn new(index: usize) -> Self {
                $name(index)
            }

            pub const fn index(self) -> usize {
                self.0
            }
        }

        impl From<usize> for $name {
            fn from(index: usize) -> Self {
                $name(index)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

pub(crate) use typed_index;

#[cfg(test)]
mod tests {
    typed_index!(
        /// A test index.
        ThingId
    );

    #[test]
    fn serializes_and_prints_as_the_bare_number() {
        let id = ThingId::new(7);
        assert_eq!(serde_json::to_string(&id).unwrap(), "7");
        assert_eq!(serde_json::from_str::<ThingId>("7").unwrap(), id);
        assert_eq!(format!("{id} {:?}", [ThingId::from(3)]), "7 [ThingId(3)]");
        assert_eq!(id.index(), 7);
        assert!(ThingId::new(2) < id);
    }
}
