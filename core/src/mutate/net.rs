//! IP and socket addresses, through their integers and ports.
//!
//! # Shrink order
//!
//! The address as an integer (towards `0.0.0.0` / `::`), IPv4 before IPv6, then the port (and
//! for IPv6 sockets the flow info and scope id) towards 0. Mutation reaches the interesting
//! addresses through the integers' interesting values (0, all ones, boundaries).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use super::via::via;

fn ipv4_to(ip: &Ipv4Addr) -> u32 {
    u32::from(*ip)
}

via! {
    [] Ipv4Addr => u32, ipv4_to, Ipv4Addr::from, injective, "Ipv4Addr"
}

fn ipv6_to(ip: &Ipv6Addr) -> u128 {
    u128::from(*ip)
}

via! {
    [] Ipv6Addr => u128, ipv6_to, Ipv6Addr::from, injective, "Ipv6Addr"
}

fn ip_to(ip: &IpAddr) -> Result<Ipv4Addr, Ipv6Addr> {
    match ip {
        IpAddr::V4(v4) => Ok(*v4),
        IpAddr::V6(v6) => Err(*v6),
    }
}

fn ip_from(repr: Result<Ipv4Addr, Ipv6Addr>) -> IpAddr {
    match repr {
        Ok(v4) => IpAddr::V4(v4),
        Err(v6) => IpAddr::V6(v6),
    }
}

via! {
    [] IpAddr => Result<Ipv4Addr, Ipv6Addr>, ip_to, ip_from, injective, "IpAddr"
}

fn socket_v4_to(socket: &SocketAddrV4) -> (Ipv4Addr, u16) {
    (*socket.ip(), socket.port())
}

fn socket_v4_from((ip, port): (Ipv4Addr, u16)) -> SocketAddrV4 {
    SocketAddrV4::new(ip, port)
}

via! {
    [] SocketAddrV4 => (Ipv4Addr, u16), socket_v4_to, socket_v4_from, injective, "SocketAddrV4"
}

fn socket_v6_to(socket: &SocketAddrV6) -> (Ipv6Addr, u16, u32, u32) {
    (
        *socket.ip(),
        socket.port(),
        socket.flowinfo(),
        socket.scope_id(),
    )
}

fn socket_v6_from((ip, port, flowinfo, scope_id): (Ipv6Addr, u16, u32, u32)) -> SocketAddrV6 {
    SocketAddrV6::new(ip, port, flowinfo, scope_id)
}

via! {
    [] SocketAddrV6 => (Ipv6Addr, u16, u32, u32), socket_v6_to, socket_v6_from, injective, "SocketAddrV6"
}

fn socket_to(socket: &SocketAddr) -> Result<SocketAddrV4, SocketAddrV6> {
    match socket {
        SocketAddr::V4(v4) => Ok(*v4),
        SocketAddr::V6(v6) => Err(*v6),
    }
}

fn socket_from(repr: Result<SocketAddrV4, SocketAddrV6>) -> SocketAddr {
    match repr {
        Ok(v4) => SocketAddr::V4(v4),
        Err(v6) => SocketAddr::V6(v6),
    }
}

via! {
    [] SocketAddr => Result<SocketAddrV4, SocketAddrV6>, socket_to, socket_from, injective, "SocketAddr"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{codec, Context, Mutate};

    #[test]
    fn addresses_round_trip_and_shrink() {
        let socket: SocketAddr = "[::1]:8080".parse().unwrap();
        assert_eq!(
            codec::from_bytes::<SocketAddr>(&codec::to_bytes(&socket)),
            socket
        );
        let mut cx = Context::new(1);
        let ip = Ipv4Addr::new(10, 0, 0, 1);
        assert_eq!(ip.shrink(&mut cx)[0], Ipv4Addr::UNSPECIFIED);
    }
}
