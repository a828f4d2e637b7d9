//! The wire's variants, from outside the crate.

use baoqi_protocol::variants::names;

#[test]
fn a_unit_enum_names_its_variants_as_they_are_written() {
    assert_eq!(
        names::<baoqi_arbiter::ViolationKind>(),
        ["technical", "recording", "clock"]
    );
    assert_eq!(names::<baoqi_rules::Color>(), ["red", "black"]);
    assert!(
        names::<baoqi_arbiter::Event>().is_empty(),
        "internally tagged"
    );
}
