//! The wire's js, from outside the crate.

use baoqi_protocol::js::constants;

#[test]
fn the_constants_name_every_event_and_the_words_of_each_side() {
    let js = constants();
    assert!(js.contains("\"game_over\""));
    assert!(js.contains("\"consecutive_draw_offer\""));
    assert!(js.contains("\"cannon\":\"炮\""));
    assert!(
        js.contains("\"2\":\"２\""),
        "black's numerals in full width"
    );
    assert!(js.contains("紅方長將，紅方不變作負"));
}
