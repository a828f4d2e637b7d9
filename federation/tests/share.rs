//! A node's share of the federation's tables.

use baoqi_federation::share;
use baoqi_store::lease::NodeLoad;

fn load(node: &str, tables: usize) -> NodeLoad {
    NodeLoad {
        node: node.into(),
        tables,
    }
}

#[test]
fn a_node_alone_takes_every_free_table() {
    assert_eq!(share(&[], "a", 0, 40), 40);
    assert_eq!(share(&[load("a", 0)], "a", 0, 40), 40);
}

#[test]
fn three_nodes_starting_together_each_take_a_third_rounded_up() {
    let loads = [load("a", 0), load("b", 0), load("c", 0)];
    assert_eq!(share(&loads, "a", 0, 40), 14);
}

#[test]
fn the_tables_of_a_dead_node_go_to_the_living_in_equal_parts() {
    // c died holding 10; a and b hold 10 each and see its 10 tables free.
    let loads = [load("a", 10), load("b", 10)];
    assert_eq!(share(&loads, "a", 10, 10), 5);
}

#[test]
fn a_node_with_more_than_its_share_takes_nothing() {
    let loads = [load("a", 30), load("b", 0)];
    assert_eq!(share(&loads, "a", 30, 2), 0);
    assert_eq!(share(&loads, "b", 0, 2), 2);
}
