//! The connections open at once, counted per group of addresses and in all
//! ([`crate::limits::Limits::per_address`], [`crate::limits::Limits::total`]).
//!
//! One device may hold many addresses: a whole IPv6 /64 (2⁶⁴ of them), every address of the
//! loopback network. Each group of addresses that one device may hold shares one share.
//! When the server is full, a newcomer is not refused while some connection has not
//! authenticated (a bare socket, a request, a WebSocket before its `hello`): the oldest such
//! connection of the group holding the most of them is closed to make room, so a stranger's
//! bare sockets cannot lock a player out, and a seat once joined is never the one closed.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::task::{Context, Poll};

use futures_util::task::AtomicWaker;

use crate::limits::Limits;

/// The addresses one device may hold, which share one share of connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// The loopback network (127.0.0.0/8 and `::1`): the server's own machine.
    Loopback,
    /// One IPv4 address (a hall's tablets each have their own, behind one router or not).
    V4(u32),
    /// An IPv6 /64, by its first 64 bits: one network's devices choose their own addresses
    /// within it.
    V6(u64),
}

/// The group of `ip` (an IPv4 address mapped into IPv6 is taken as the IPv4 one).
pub fn group_of(ip: IpAddr) -> Group {
    match ip.to_canonical() {
        IpAddr::V4(v4) if v4.is_loopback() => Group::Loopback,
        IpAddr::V4(v4) => Group::V4(u32::from(v4)),
        IpAddr::V6(v6) if v6.is_loopback() => Group::Loopback,
        IpAddr::V6(v6) => Group::V6((u128::from(v6) >> 64) as u64),
    }
}

/// The connections open, per group and in all, shared by the accept loop and the
/// connections.
#[derive(Debug, Default, Clone)]
pub struct Occupancy {
    open: Arc<Mutex<Open>>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    next: u64,
    groups: HashMap<Group, Members>,
}

/// One group's connections, oldest first, and how many of them have not authenticated.
#[derive(Debug, Default)]
struct Members {
    places: BTreeMap<u64, Arc<Place>>,
    unauthenticated: usize,
}

/// One connection's place, as the connection sees it: it is told when it is closed to make
/// room ([`Place::poll_evicted`]), and says when it has authenticated ([`Place::authenticated`]).
#[derive(Debug)]
pub struct Place {
    id: u64,
    group: Group,
    /// Changed under the occupancy's lock only.
    authenticated: AtomicBool,
    evicted: AtomicBool,
    waker: AtomicWaker,
    open: Weak<Mutex<Open>>,
}

/// One admitted connection; its place is given back when it is dropped (with the socket,
/// also after a WebSocket upgrade).
#[derive(Debug)]
pub struct Admitted {
    place: Arc<Place>,
    open: Arc<Mutex<Open>>,
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The address's group has [`Limits::per_address`] connections open.
    #[error("{0} connections are open from this address")]
    PerAddress(usize),
    /// The server has [`Limits::total`] connections open, all of them authenticated.
    #[error("{0} connections are open in all, none of them to spare")]
    Total(usize),
}

fn locked(open: &Mutex<Open>) -> MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Occupancy {
    /// Admits a connection from `addr` unless its group has its share; when the server is
    /// full, an unauthenticated connection is closed to make room ([`Open::make_room`]).
    pub fn admit(&self, addr: IpAddr, limits: &Limits) -> Result<Admitted, Refused> {
        let group = group_of(addr);
        let mut open = locked(&self.open);
        let here = open.groups.get(&group).map_or(0, |m| m.places.len());
        if here >= limits.per_address {
            return Err(Refused::PerAddress(here));
        }
        if open.total >= limits.total && !open.make_room(group) {
            return Err(Refused::Total(open.total));
        }
        open.next += 1;
        let place = Arc::new(Place {
            id: open.next,
            group,
            authenticated: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            waker: AtomicWaker::new(),
            open: Arc::downgrade(&self.open),
        });
        let members = open.groups.entry(group).or_default();
        members.places.insert(place.id, place.clone());
        members.unauthenticated += 1;
        open.total += 1;
        Ok(Admitted {
            place,
            open: self.open.clone(),
        })
    }

    /// Connections open in all.
    pub fn total(&self) -> usize {
        locked(&self.open).total
    }
}

impl Open {
    /// Closes the oldest unauthenticated connection of the group that holds the most of
    /// them (`newcomer`'s group counting the newcomer, and losing a tie); false when every
    /// connection open has authenticated.
    fn make_room(&mut self, newcomer: Group) -> bool {
        let weight = |(g, m): (&Group, &Members)| {
            (
                m.unauthenticated + usize::from(*g == newcomer),
                *g != newcomer,
            )
        };
        let chosen = self
            .groups
            .iter()
            .filter(|(_, m)| m.unauthenticated > 0)
            .max_by_key(|&entry| weight(entry))
            .map(|(g, _)| *g);
        let Some(group) = chosen else {
            return false;
        };
        let Some(members) = self.groups.get_mut(&group) else {
            return false;
        };
        let oldest = members
            .places
            .values()
            .find(|p| !p.authenticated.load(Ordering::Relaxed))
            .cloned();
        let Some(place) = oldest else {
            return false;
        };
        members.places.remove(&place.id);
        members.unauthenticated -= 1;
        self.total -= 1;
        place.evicted.store(true, Ordering::Release);
        place.waker.wake();
        tracing::info!(?group, "an unauthenticated connection closed to make room");
        true
    }
}

impl Place {
    /// The connection has authenticated (a seat's `hello`): it is never closed to make room.
    pub fn authenticated(&self) {
        let Some(open) = self.open.upgrade() else {
            return;
        };
        let mut open = locked(&open);
        if self.authenticated.swap(true, Ordering::Relaxed) {
            return;
        }
        if let Some(members) = open.groups.get_mut(&self.group)
            && members.places.contains_key(&self.id)
        {
            members.unauthenticated -= 1;
        }
    }

    /// Ready once the connection has been closed to make room; until then, `cx` is woken
    /// when it is.
    pub fn poll_evicted(&self, cx: &Context<'_>) -> Poll<()> {
        self.waker.register(cx.waker());
        if self.evicted.load(Ordering::Acquire) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Admitted {
    /// The connection's place, for the requests and the WebSocket it carries.
    pub fn place(&self) -> Arc<Place> {
        self.place.clone()
    }

    /// [`Place::poll_evicted`] of this connection's place.
    pub fn poll_evicted(&self, cx: &Context<'_>) -> Poll<()> {
        self.place.poll_evicted(cx)
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = locked(&self.open);
        let group = self.place.group;
        let Some(members) = open.groups.get_mut(&group) else {
            return;
        };
        if members.places.remove(&self.place.id).is_none() {
            return; // closed to make room: given back then
        }
        if !self.place.authenticated.load(Ordering::Relaxed) {
            members.unauthenticated -= 1;
        }
        if members.places.is_empty() {
            open.groups.remove(&group);
        }
        open.total -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn limits(per_address: usize, total: usize) -> Limits {
        Limits {
            per_address,
            total,
            ..Limits::default()
        }
    }

    fn evicted(a: &Admitted) -> bool {
        a.place.evicted.load(Ordering::Acquire)
    }

    #[test]
    fn an_address_gets_its_share_and_a_closed_connection_gives_it_back() {
        let limits = limits(2, 3);
        let occ = Occupancy::default();
        let a = ip("10.0.0.1");
        let first = occ.admit(a, &limits).unwrap();
        let second = occ.admit(a, &limits).unwrap();
        assert_eq!(occ.admit(a, &limits).unwrap_err(), Refused::PerAddress(2));
        let third = occ.admit(ip("10.0.0.2"), &limits).unwrap();
        for p in [&first, &second, &third] {
            p.place.authenticated();
        }
        assert_eq!(
            occ.admit(ip("10.0.0.3"), &limits).unwrap_err(),
            Refused::Total(3),
            "every connection open is a seat"
        );
        drop(first);
        assert_eq!(occ.total(), 2);
        assert!(occ.admit(a, &limits).is_ok());
    }

    #[test]
    fn one_ipv6_64_is_one_share_and_the_next_64_another() {
        let limits = limits(2, 100);
        let occ = Occupancy::default();
        let _a = occ.admit(ip("2001:db8::1"), &limits).unwrap();
        let _b = occ.admit(ip("2001:db8::ffff:2"), &limits).unwrap();
        assert_eq!(
            occ.admit(ip("2001:db8::dead:beef:3"), &limits).unwrap_err(),
            Refused::PerAddress(2)
        );
        assert!(occ.admit(ip("2001:db8:0:1::1"), &limits).is_ok());
    }

    #[test]
    fn loopback_addresses_and_mapped_ipv4_share_their_address_share() {
        assert_eq!(group_of(ip("127.0.0.1")), group_of(ip("127.0.0.3")));
        assert_eq!(group_of(ip("::1")), group_of(ip("127.0.0.1")));
        assert_eq!(group_of(ip("::ffff:10.0.0.1")), group_of(ip("10.0.0.1")));
        assert_ne!(group_of(ip("10.0.0.1")), group_of(ip("10.0.0.2")));
    }

    #[test]
    fn a_full_server_closes_the_largest_groups_oldest_bare_connection() {
        let limits = limits(10, 4);
        let occ = Occupancy::default();
        let seat = occ.admit(ip("10.0.0.9"), &limits).unwrap();
        seat.place.authenticated();
        let stranger: Vec<_> = (0..3)
            .map(|_| occ.admit(ip("10.0.0.66"), &limits).unwrap())
            .collect();
        let player = occ.admit(ip("10.0.0.1"), &limits).unwrap();
        assert!(evicted(&stranger[0]), "the stranger's oldest made room");
        assert!(!stranger[1..].iter().any(evicted));
        assert!(!evicted(&seat));
        assert_eq!(occ.total(), 4);
        player.place.authenticated();
        // The stranger's next connections only ever close his own.
        let again: Vec<_> = (0..5)
            .map(|_| occ.admit(ip("10.0.0.66"), &limits).unwrap())
            .collect();
        assert!(!evicted(&player) && !evicted(&seat));
        assert_eq!(again.iter().filter(|a| !evicted(a)).count(), 2);
        drop(stranger);
        drop(again);
        assert_eq!(occ.total(), 2, "each place is given back once");
    }
}
