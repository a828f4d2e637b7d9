//! The wire's seat, from outside the crate.

use baoqi_arbiter::Side;
use baoqi_protocol::{Audience, Role};

#[test]
fn roles_round_trip_their_names() {
    for r in Role::ALL {
        assert_eq!(Role::parse(r.as_str()), Some(r));
        assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
    }
    assert!(!Role::Spectator.may_act());
    assert_eq!(Role::BlackProxy.side(), Some(Side::Black));
}

#[test]
fn a103_the_sealed_move_is_for_the_referee_alone() {
    let sealed = baoqi_arbiter::Event::Sealed {
        side: Side::Red,
        mv: "h2e2".parse().unwrap(),
    };
    let a = Audience::of(&sealed);
    assert_eq!(a, Audience::Referee);
    assert!(
        Role::ALL
            .iter()
            .all(|&r| a.includes(r) == (r == Role::Referee))
    );
}
