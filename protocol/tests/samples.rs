//! The samples of every variant, from outside the crate.

use baoqi_arbiter::{Command, Event};
use baoqi_protocol::samples::{client_messages, commands, covers_all, events, server_messages};

#[test]
fn every_variant_has_a_sample() {
    covers_all().unwrap();
}

#[test]
fn every_sample_round_trips_through_json() {
    for e in events() {
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e, "{json}");
    }
    for c in commands() {
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Command>(&json).unwrap(), c, "{json}");
    }
    for m in server_messages() {
        let text = baoqi_protocol::encode(&m);
        assert_eq!(baoqi_protocol::decode_server(&text).unwrap(), m, "{text}");
    }
    for m in client_messages() {
        let text = baoqi_protocol::encode_client(&m);
        assert_eq!(baoqi_protocol::decode(&text).unwrap(), m, "{text}");
    }
}
