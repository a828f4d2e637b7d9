//! What the nodes say to each other over NATS.

use baoqi_federation::wire::{Topic, WireHandled, subject};
use baoqi_server::table::Handled;
use baoqi_store::StoreError;
use baoqi_store::model::{EventId, TableId};

#[test]
fn a_table_s_subjects_sit_under_its_event() {
    assert_eq!(
        subject("f00d", EventId(3), TableId(41), Topic::Events),
        "baoqi.f00d.3.41.events"
    );
    assert_eq!(
        subject("f00d", EventId(3), TableId(41), Topic::OverGet),
        "baoqi.f00d.3.41.over.get"
    );
}

#[test]
fn a_storage_failure_travels_as_its_reason() {
    let e = Handled::Storage(StoreError::WriterStopped);
    let back: Handled = WireHandled::from(e).into();
    assert!(
        matches!(&back, Handled::Storage(StoreError::Remote(why)) if why.contains("writer")),
        "{back:?}"
    );
}
