//! The address an admin request comes from, which wrong tokens are counted under: the peer's,
//! or, when the peer is a reverse proxy the operator trusts (`ADMIN_TRUSTED_PROXIES`), the
//! address the proxy names: in `X-Forwarded-For` the nearest hop that is not itself a trusted
//! proxy, else `X-Real-IP`. Without that setting both headers are ignored: anyone can write them.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use axum::http::HeaderMap;

/// `X-Forwarded-For`: the addresses a request passed through, the client first.
const FORWARDED_FOR: &str = "x-forwarded-for";
/// `X-Real-IP`: the client's address, as nginx's `proxy_set_header X-Real-IP $remote_addr`.
const REAL_IP: &str = "x-real-ip";

/// An address or a network (`10.0.0.1`, `10.0.0.0/8`, `fd00::/8`) of trusted proxies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProxyNet {
    network: IpAddr,
    prefix: u8,
}

/// A trusted proxy that is no address or network.
#[derive(Debug, thiserror::Error)]
#[error("{0:?} is no address or network (e.g. 127.0.0.1, 10.0.0.0/8, ::1)")]
pub struct BadProxyNet(String);

impl FromStr for ProxyNet {
    type Err = BadProxyNet;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BadProxyNet(text.to_owned());
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let network: IpAddr = address.parse().map_err(|_| bad())?;
        let network = network.to_canonical();
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= bits)
                .ok_or_else(bad)?,
            None => bits,
        };
        Ok(Self { network, prefix })
    }
}

impl fmt::Display for ProxyNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

impl ProxyNet {
    /// Whether `ip` is in this network.
    fn contains(self, ip: IpAddr) -> bool {
        match (self.network, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The proxies whose forwarding headers are believed; none by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<ProxyNet>);

impl TrustedProxies {
    /// Trusts the proxies in `nets`.
    pub fn new(nets: Vec<ProxyNet>) -> Self {
        Self(nets)
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is a trusted proxy.
    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(ip))
    }

    /// The address a request from `peer` with `headers` comes from (see the module's doc).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = headers
            .get_all(FORWARDED_FOR)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        if hops.is_empty() {
            return headers
                .get(REAL_IP)
                .and_then(|value| value.to_str().ok())
                .and_then(hop_address)
                .unwrap_or(peer);
        }
        // From the nearest hop back: each trusted proxy vouches for the one before it.
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Some(address) = hop_address(hop) else {
                break;
            };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

/// The address in a forwarding header's entry: `1.2.3.4`, `1.2.3.4:80`, `::1` or `[::1]:80`.
fn hop_address(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|socket| socket.ip()))
        .ok()
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trusted(nets: &[&str]) -> TrustedProxies {
        TrustedProxies::new(nets.iter().map(|net| net.parse().unwrap()).collect())
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn networks_parse_and_contain_their_addresses() {
        for (net, inside, outside) in [
            ("127.0.0.1", "127.0.0.1", "127.0.0.2"),
            ("10.0.0.0/8", "10.200.3.4", "11.0.0.1"),
            ("0.0.0.0/0", "8.8.8.8", "::1"),
            ("fd00::/8", "fd12::1", "fe80::1"),
            ("::1", "::1", "::2"),
            ("::ffff:10.0.0.1", "10.0.0.1", "10.0.0.2"),
        ] {
            let net: ProxyNet = net.parse().unwrap();
            assert!(net.contains(ip(inside)), "{net} {inside}");
            assert!(!net.contains(ip(outside)), "{net} {outside}");
        }
        for bad in ["", "proxy", "10.0.0.0/33", "::/129", "10.0.0.1/x"] {
            assert!(bad.parse::<ProxyNet>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_headers_of_an_untrusted_peer_are_ignored() {
        let spoofed = headers(&[(FORWARDED_FOR, "1.2.3.4"), (REAL_IP, "5.6.7.8")]);
        let peer = ip("203.0.113.9");
        assert_eq!(TrustedProxies::default().client(peer, &spoofed), peer);
        assert_eq!(trusted(&["127.0.0.1"]).client(peer, &spoofed), peer);
    }

    #[test]
    fn a_trusted_proxy_names_the_nearest_untrusted_hop() {
        let proxies = trusted(&["127.0.0.1", "10.0.0.0/8"]);
        let local = ip("127.0.0.1");
        let forwarded = |value: &str| headers(&[(FORWARDED_FOR, value)]);
        // A client may prepend anything: only the hops the proxies added count.
        let chain = forwarded("6.6.6.6, 198.51.100.7, 10.1.2.3");
        assert_eq!(proxies.client(local, &chain), ip("198.51.100.7"));
        let split = headers(&[(FORWARDED_FOR, "6.6.6.6"), (FORWARDED_FOR, "198.51.100.7")]);
        assert_eq!(proxies.client(local, &split), ip("198.51.100.7"));
        assert_eq!(
            proxies.client(local, &forwarded("[2001:db8::1]:4711")),
            ip("2001:db8::1")
        );
        assert_eq!(
            proxies.client(local, &forwarded("garbage, 10.0.0.5")),
            ip("10.0.0.5"),
            "an unreadable hop stops the walk at the last readable one"
        );
        assert_eq!(proxies.client(local, &forwarded("garbage")), local);
        let real = headers(&[(REAL_IP, "198.51.100.8")]);
        assert_eq!(proxies.client(local, &real), ip("198.51.100.8"));
        assert_eq!(proxies.client(local, &HeaderMap::new()), local);
        let mapped = ip("::ffff:127.0.0.1");
        assert_eq!(proxies.client(mapped, &chain), ip("198.51.100.7"));
    }
}
