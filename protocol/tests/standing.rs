//! The wire's standing, from outside the crate.

use baoqi_protocol::{Place, RoundNumber, StandingAnswer};
use serde_json::json;

#[test]
fn fu2_3_a_place_is_typed_on_the_wire() {
    let a = StandingAnswer::Placed(Place {
        after_round: RoundNumber(3),
        rounds_total: Some(7),
        place: 3,
        shared: true,
        halves: 9,
        players: 8,
    });
    let v = serde_json::to_value(a).unwrap();
    assert_eq!(
        v,
        json!({"answer": "placed", "after_round": 3, "rounds_total": 7, "place": 3,
               "shared": true, "halves": 9, "players": 8})
    );
    assert_eq!(serde_json::from_value::<StandingAnswer>(v).unwrap(), a);
    let none: StandingAnswer = serde_json::from_value(json!({"answer": "no_standings"})).unwrap();
    assert_eq!(none, StandingAnswer::NoStandings);
}
