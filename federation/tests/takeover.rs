//! Where a table taken over is paused (the rule of a restart).

use baoqi_arbiter::Millis;
use baoqi_federation::takeover::last_alive;

#[test]
fn a_table_is_paused_at_its_old_holder_s_last_renewal() {
    assert_eq!(
        last_alive(Some(Millis(9_000)), Some(Millis(7_500))),
        Some(Millis(9_000))
    );
}

#[test]
fn a_step_stored_after_the_last_renewal_moves_the_pause_to_it() {
    // The old holder may append until its lease runs out, after renewing.
    assert_eq!(
        last_alive(Some(Millis(9_000)), Some(Millis(9_400))),
        Some(Millis(9_400))
    );
}

#[test]
fn a_table_never_held_is_paused_at_its_last_step() {
    // A hall's table copied into the federation's database (baoqi db copy).
    assert_eq!(last_alive(None, Some(Millis(1_234))), Some(Millis(1_234)));
    assert_eq!(last_alive(None, None), None);
}
