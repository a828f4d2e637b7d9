//! `docs/protocol.md` is checked against the crate: every example parses as the type its
//! block names, every message, command and event type is in the document, and the table of
//! events gives each event the audience the server routes it to.

use std::collections::BTreeSet;

use baoqi_arbiter::{Command, EndCause, Event, OpenCall, Rejection};
use baoqi_protocol::variants::names;
use baoqi_protocol::{Audience, ClientMsg, ErrorCode, ServerMsg, decode, decode_server, samples};
use serde::de::DeserializeOwned;

fn document() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    std::fs::read_to_string(path).expect("docs/protocol.md")
}

/// The fenced blocks of `doc` as (info string, body).
fn blocks(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in doc.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "an unclosed block");
    out
}

/// The checked blocks of one kind (`json client`, `json event`, …).
fn examples(kind: &str) -> Vec<String> {
    blocks(&document())
        .into_iter()
        .filter(|(info, _)| info == &format!("json {kind}"))
        .map(|(_, body)| body)
        .collect()
}

fn parsed<T: DeserializeOwned>(kind: &str) -> Vec<T> {
    examples(kind)
        .iter()
        .map(|b| serde_json::from_str(b).unwrap_or_else(|e| panic!("{kind}: {e}\n{b}")))
        .collect()
}

fn tag<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).unwrap()["type"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_example_parses_as_what_it_shows() {
    let client: Vec<ClientMsg> = examples("client")
        .iter()
        .map(|b| decode(b).unwrap_or_else(|e| panic!("{e}\n{b}")))
        .collect();
    let server: Vec<ServerMsg> = examples("server")
        .iter()
        .map(|b| decode_server(b).unwrap_or_else(|e| panic!("{e}\n{b}")))
        .collect();
    let counts = [
        client.len(),
        server.len(),
        parsed::<Event>("event").len(),
        parsed::<Command>("command").len(),
        parsed::<OpenCall>("call").len(),
        parsed::<Rejection>("rejection").len(),
        parsed::<EndCause>("end_cause").len(),
    ];
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

#[test]
fn every_message_type_has_an_example() {
    let client: BTreeSet<String> = examples("client")
        .iter()
        .map(|b| tag(&decode(b).unwrap()))
        .collect();
    let server: BTreeSet<String> = examples("server")
        .iter()
        .map(|b| tag(&decode_server(b).unwrap()))
        .collect();
    let all_client: BTreeSet<String> = samples::client_messages().iter().map(tag).collect();
    let all_server: BTreeSet<String> = samples::server_messages().iter().map(tag).collect();
    assert_eq!(client, all_client);
    assert_eq!(server, all_server);
}

/// The rows of the table whose header starts with `| first |`: (first cell, second cell).
fn table(first: &str) -> Vec<(String, String)> {
    let doc = document();
    let header = format!("| {first} |");
    let start = doc
        .find(&header)
        .unwrap_or_else(|| panic!("no table {first}"));
    doc[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

/// The names in a first cell: `` `a` / `b` `` names `a` and `b`.
fn names_in(cell: &str) -> Vec<String> {
    cell.split('/')
        .map(|n| n.trim().trim_matches('`').to_string())
        .collect()
}

#[test]
fn every_command_event_and_error_code_is_listed() {
    let listed = |first: &str| -> BTreeSet<String> {
        table(first).iter().flat_map(|(c, _)| names_in(c)).collect()
    };
    let commands: BTreeSet<String> = samples::commands().iter().map(tag).collect();
    let events: BTreeSet<String> = samples::events().iter().map(tag).collect();
    let codes: BTreeSet<String> = names::<ErrorCode>()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(listed("command"), commands);
    assert_eq!(listed("event"), events);
    assert_eq!(listed("code"), codes);
}

#[test]
fn each_event_is_seen_by_the_audience_the_table_gives() {
    let rows = table("event");
    for event in samples::events() {
        let name = tag(&event);
        let (_, seen_by) = rows
            .iter()
            .find(|(c, _)| names_in(c).contains(&name))
            .unwrap();
        let audience = Audience::of(&event);
        let documented = match seen_by.as_str() {
            "everyone" => audience == Audience::All,
            "referee" => audience == Audience::Referee,
            "its `audience`" => matches!(event, Event::TimeAlert { .. }),
            other => panic!("{name}: seen by {other}?"),
        };
        assert!(
            documented,
            "{name} is seen by {audience:?}, documented {seen_by}"
        );
    }
}
