//! `baoqi serve --demo`: an event made once, with a 視障賽 table (two VI players), a
//! 共融賽 table (a VI player against a deaf player, mirrored boards: the VI side on the VI
//! board, the deaf side on the regular board) and a 視障賽 table for two keypads alone (no
//! sensor board: the announcement is the move). Tokens are only stored hashed, so each
//! start issues fresh tokens for the demo seats (revoking the previous ones) and prints
//! them with their join links.

use baoqi_arbiter::MatchConfig;
use baoqi_tournament::RoundNumber;

use crate::admin::{self, AdminError, Created};
use baoqi_store::Store;
use baoqi_store::config::{EventFile, EventSettings, RefereeSpec, TableSpec};

/// The 視障賽 table: two VI players, the talking clock, part 6 alerts with half time.
const PART6: &str = r#"
kind = "part6"
talking_clock = true
red = { name = "李明", categories = ["blind"] }
black = { name = "張華", categories = ["partially_sighted"] }
alerts = { set = "part6", half = true }
"#;

/// The 共融賽 table: a blind player on the VI board against a deaf player on the regular
/// board (mirrored boards), part 7 alerts to the VI player.
const PART7: &str = r#"
kind = "part7"
red = { name = "王芳", categories = ["blind"], board = "vi" }
black = { name = "趙強", categories = ["deaf"], board = "regular" }
alerts = { set = "part7", vi_only = true }
"#;

/// The keypads-alone table: two blind players without a sensor board (`board = "none"`:
/// the announcement is the move; the referee watches their tactile boards), so that
/// `baoqi keypad` alone plays a whole game.
const KEYPADS: &str = r#"
kind = "part6"
talking_clock = true
red = { name = "陳光", categories = ["blind"], board = "none" }
black = { name = "林明", categories = ["blind"], board = "none" }
alerts = { set = "part6", half = true }
"#;

fn config(toml: &str) -> MatchConfig {
    MatchConfig::from_toml(toml).expect("the demo configurations are valid")
}

/// The demo event's name; an event of this name is the demo.
pub const DEMO_EVENT: &str = "報棋示範 baoqi demo";

/// The demo event file.
pub fn demo_file() -> EventFile {
    EventFile {
        name: DEMO_EVENT.to_string(),
        settings: EventSettings::default(),
        referees: vec![RefereeSpec {
            name: "示範裁判".into(),
            tables: Vec::new(),
        }],
        spectators: 1,
        tables: vec![
            TableSpec {
                round: RoundNumber::first(),
                name: "視障賽".into(),
                red: "李明".into(),
                black: "張華".into(),
                red_proxy: None,
                black_proxy: None,
                config: Some(config(PART6)),
            },
            TableSpec {
                round: RoundNumber::first(),
                name: "共融賽".into(),
                red: "王芳".into(),
                black: "趙強".into(),
                red_proxy: None,
                black_proxy: None,
                config: Some(config(PART7)),
            },
            TableSpec {
                round: RoundNumber::first(),
                name: "視障賽（只用鍵盤）".into(),
                red: "陳光".into(),
                black: "林明".into(),
                red_proxy: None,
                black_proxy: None,
                config: Some(config(KEYPADS)),
            },
        ],
    }
}

/// Creates the demo event if the store has none, else re-issues its seats' tokens.
/// Returns the event with every seat's new secret.
pub fn ensure(store: &dyn Store) -> Result<Created, AdminError> {
    let existing = store.events()?.into_iter().find(|e| e.name == DEMO_EVENT);
    let Some(event) = existing else {
        return admin::create_event(store, &demo_file());
    };
    let tables = store.tables(Some(event.id))?;
    let mut seats = Vec::new();
    for old in store.seats(event.id)? {
        if old.revoked {
            continue;
        }
        store.revoke(&old.token_hash)?;
        seats.push(admin::issue(
            store,
            event.id,
            old.role,
            &old.name,
            old.tables.clone(),
        )?);
    }
    Ok(Created {
        event: event.id,
        name: event.name,
        tables,
        seats,
    })
}
