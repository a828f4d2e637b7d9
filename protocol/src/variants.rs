//! The wire names of a unit enum's variants, read from its own `Deserialize` (serde hands
//! an enum's variant names, as renamed, to `deserialize_enum`), so that no list of names is
//! written twice.

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// Carries the captured names out of the deserializer.
#[derive(Debug)]
struct Names(&'static [&'static str]);

impl std::fmt::Display for Names {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::error::Error for Names {}

impl de::Error for Names {
    fn custom<T: std::fmt::Display>(_: T) -> Names {
        Names(&[])
    }
}

/// A deserializer that answers nothing and remembers the variants it is asked for.
struct Probe;

impl<'de> Deserializer<'de> for Probe {
    type Error = Names;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Names> {
        Err(Names(&[]))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Names> {
        Err(Names(variants))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// The wire names of `T`'s variants, in declaration order. Empty for a type that is not an
/// externally tagged enum.
pub fn names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    match T::deserialize(Probe) {
        Ok(_) => &[],
        Err(Names(names)) => names,
    }
}
