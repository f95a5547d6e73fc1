//! Sides, half-edges, rotations and board positions.
//!
//! Edges are numbered N=0, E=1, S=2, W=3; half-edges clockwise from the west half of the
//! north edge: NNW=0, NNE=1, ENE=2, ESE=3, SSE=4, SSW=5, WSW=6, WNW=7. A rotation `r` is a
//! number of quarter turns clockwise. The board's y axis points north.

pub const EDGE_NAMES: [&str; 4] = ["N", "E", "S", "W"];
pub const HALF_NAMES: [&str; 8] = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"];

/// Board offset of the neighbour across each edge (x east, y north).
pub const EDGE_DELTA: [(i16, i16); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The 8 surrounding positions of a tile (for monasteries, gardens and circus-like areas).
pub const AROUND: [(i16, i16); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
];

/// A tile's position and the 8 around it, row by row from the south-west (the order
/// completions around a new tile are scored in).
pub const AROUND_AND_SELF: [(i16, i16); 9] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (0, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

#[inline]
pub const fn opposite_edge(e: u8) -> u8 {
    (e + 2) & 3
}

/// The half-edge of the neighbouring tile that touches half-edge `h` of this tile.
#[inline]
pub const fn opposite_half(h: u8) -> u8 {
    // NNW<->SSW, NNE<->SSE, ENE<->WNW, ESE<->WSW
    const OPP: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];
    OPP[h as usize]
}

#[inline]
pub const fn rotate_edge(e: u8, r: u8) -> u8 {
    (e + r) & 3
}

#[inline]
pub const fn rotate_half(h: u8, r: u8) -> u8 {
    (h + 2 * r) & 7
}

/// Rotate a bit mask of edges (bit e set for edge e).
#[inline]
pub const fn rotate_edge_mask(m: u8, r: u8) -> u8 {
    let m = m & 0xF;
    let r = r & 3;
    ((m << r) | (m >> ((4 - r) & 3))) & 0xF
}

/// Rotate a bit mask of half-edges.
#[inline]
pub const fn rotate_half_mask(m: u8, r: u8) -> u8 {
    m.rotate_left(2 * (r as u32 & 3))
}

pub fn parse_edge(s: &str) -> Option<u8> {
    EDGE_NAMES.iter().position(|n| *n == s).map(|i| i as u8)
}

pub fn parse_half(s: &str) -> Option<u8> {
    HALF_NAMES.iter().position(|n| *n == s).map(|i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_moves_halves_two_places() {
        assert_eq!(rotate_half(0, 1), 2); // NNW -> ENE
        assert_eq!(rotate_half(1, 1), 3); // NNE -> ESE
        assert_eq!(rotate_edge(3, 1), 0);
        assert_eq!(rotate_edge_mask(0b1001, 1), 0b0011);
        assert_eq!(rotate_half_mask(0b1000_0001, 1), 0b0000_0110);
    }

    #[test]
    fn opposite_halves_meet_across_edges() {
        for h in 0..8u8 {
            assert_eq!(opposite_half(opposite_half(h)), h);
            // The opposite half lies on the opposite edge.
            assert_eq!(opposite_edge(h / 2), opposite_half(h) / 2);
        }
    }
}
