//! How many answers to wrong tokens are held back at once ([`super::throttle`] says for how
//! long): a few per client address and a few dozen in all. Past that a wrong token is answered
//! at once (still as slowed, with `Retry-After`), so held answers never tie up more than a few of
//! the listener's connections, whatever a flood sends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::throttle::client_key;

/// Answers held at once for one address (IPv6 by /64).
const PER_ADDRESS: u32 = 4;
/// Answers held at once in all.
const IN_ALL: u32 = 32;

/// The answers being held back.
#[derive(Clone, Debug, Default)]
pub struct Holds {
    state: Arc<Mutex<Held>>,
}

#[derive(Debug, Default)]
struct Held {
    total: u32,
    per_address: HashMap<IpAddr, u32>,
}

/// The right to hold one answer back; given back when dropped.
#[derive(Debug)]
pub struct Hold {
    state: Arc<Mutex<Held>>,
    key: IpAddr,
}

impl Holds {
    /// A hold for an answer to `client`, unless as many are held as may be.
    pub fn try_hold(&self, client: IpAddr) -> Option<Hold> {
        let key = client_key(client);
        let mut held = self.state.lock().expect("holds poisoned");
        let of_address = held.per_address.get(&key).copied().unwrap_or(0);
        if held.total >= IN_ALL || of_address >= PER_ADDRESS {
            return None;
        }
        held.total += 1;
        held.per_address.insert(key, of_address + 1);
        Some(Hold {
            state: self.state.clone(),
            key,
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut held = self.state.lock().unwrap_or_else(|p| p.into_inner());
        held.total = held.total.saturating_sub(1);
        if let Some(count) = held.per_address.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                held.per_address.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    fn address(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + n))
    }

    #[test]
    fn a_few_per_address_and_a_few_dozen_in_all_given_back_when_dropped() {
        let holds = Holds::default();
        let mine: Vec<Hold> = (0..PER_ADDRESS)
            .map(|_| holds.try_hold(address(1)).expect("a hold"))
            .collect();
        assert!(
            holds.try_hold(address(1)).is_none(),
            "the address has its share"
        );
        let others: Vec<Hold> = (2..).map_while(|n| holds.try_hold(address(n))).collect();
        assert_eq!(others.len() as u32, IN_ALL - PER_ADDRESS);
        assert!(holds.try_hold(address(999)).is_none(), "all are held");
        drop(mine);
        assert!(holds.try_hold(address(1)).is_some());
        drop(others);
        assert_eq!(holds.state.lock().unwrap().total, 0);
        assert!(holds.state.lock().unwrap().per_address.is_empty());
    }
}
