//! JSON input parsed strictly: a key twice in one object is an error, not
//! the last value silently kept. Numbers keep the text they were written
//! with (serde_json's `arbitrary_precision`): `18446744073709551617`, `-0`
//! and every digit of a long decimal pass through as written; an exponent
//! is written in one form, `1E2` as `1e+2`, the same number.

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// Parses `text` as `T` after checking that no object repeats a key. An
/// error carries the line and column of the repeated key.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str::<UniqueKeys>(text)?;
    serde_json::from_str(text)
}

/// A JSON value whose objects have unique keys; holds nothing. Nesting is
/// bounded by serde_json's recursion limit (128).
struct UniqueKeys;

impl<'de> de::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueKeys)
    }
}

impl<'de> Visitor<'de> for UniqueKeys {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!(
                    "the key `{key}` appears twice in one object"
                )));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_repeated_key_is_an_error_at_its_place() {
        let error = parse::<Value>("{\"id\": \"A\",\n \"id\": \"B\"}").unwrap_err();
        assert!(
            error.to_string().contains("the key `id` appears twice"),
            "{error}"
        );
        assert_eq!(error.line(), 2);
        let nested = parse::<Value>("[{\"a\": {\"b\": 1, \"b\": 2}}]").unwrap_err();
        assert!(nested.to_string().contains("`b` appears twice"), "{nested}");
        assert!(parse::<Value>("{\"a\": {\"a\": 1}, \"b\": [{\"a\": 2}]}").is_ok());
    }

    #[test]
    fn numbers_pass_through_as_written() {
        for (number, written) in [
            ("18446744073709551617", "18446744073709551617"),
            ("-0", "-0"),
            (
                "0.1000000000000000055511151231257827",
                "0.1000000000000000055511151231257827",
            ),
            ("1E2", "1e+2"),
            ("1e-400", "1e-400"),
            ("-12.50", "-12.50"),
        ] {
            let value: Value = parse(number).unwrap();
            assert_eq!(serde_json::to_string(&value).unwrap(), written);
        }
    }
}
