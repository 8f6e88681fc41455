//! The network file: `PVNN`, format version and hidden size (u32), then the quantized weights
//! little-endian: hidden weights input by input (i16), hidden biases (i16), output weights
//! (i16), output bias (i32).

use super::{HIDDEN, INPUTS, Network};

const MAGIC: &[u8; 4] = b"PVNN";
const VERSION: u32 = 1;

/// The size in bytes of a network file of `hidden` neurons per side.
pub const fn size_for(hidden: usize) -> usize {
    12 + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// The size in bytes of this build's network file.
pub const SIZE: usize = size_for(HIDDEN);

/// The widest hidden layer a file may claim (a guard against a corrupt header).
const MAX_HIDDEN: usize = 4096;

/// A network file's weights at the hidden size the file gives, which need not be this
/// build's: training can start a wider network from a narrower one.
pub struct Weights {
    pub hidden: usize,
    /// `INPUTS` rows of `hidden` weights each.
    pub hidden_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
}

/// Reads a network file of any hidden size, or says why the bytes are not one.
pub fn decode_weights(bytes: &[u8]) -> Result<Weights, String> {
    if bytes.len() < 12 || &bytes[..4] != MAGIC {
        return Err(format!(
            "not a Pivot network file (no PVNN header in its {} bytes)",
            bytes.len()
        ));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(4) != VERSION {
        return Err(format!(
            "network format {}; this build reads format {VERSION}",
            word(4)
        ));
    }
    let hidden = word(8) as usize;
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(format!(
            "the header claims {hidden} hidden neurons; 1 to {MAX_HIDDEN} can be read"
        ));
    }
    if bytes.len() != size_for(hidden) {
        return Err(format!(
            "a network of {hidden} hidden neurons has {} bytes, this file {}",
            size_for(hidden),
            bytes.len()
        ));
    }
    let mut at = 12;
    let mut take = |n: usize| -> Vec<i16> {
        let v = bytes[at..at + 2 * n]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        at += 2 * n;
        v
    };
    Ok(Weights {
        hidden,
        hidden_weights: take(INPUTS * hidden),
        hidden_bias: take(hidden),
        output_weights: take(2 * hidden),
        output_bias: word(bytes.len() - 4) as i32,
    })
}

/// Reads a network of this build's hidden size, or says why the bytes are not one.
pub fn decode(bytes: &[u8]) -> Result<Network, String> {
    let w = decode_weights(bytes)?;
    if w.hidden != HIDDEN {
        return Err(format!(
            "a network of {} hidden neurons; this build reads {HIDDEN}",
            w.hidden
        ));
    }
    let mut hidden_weights = vec![[0i16; HIDDEN]; INPUTS];
    for (column, row) in hidden_weights
        .iter_mut()
        .zip(w.hidden_weights.chunks_exact(HIDDEN))
    {
        column.copy_from_slice(row);
    }
    let mut hidden_bias = [0i16; HIDDEN];
    hidden_bias.copy_from_slice(&w.hidden_bias);
    let mut output_weights = [0i16; 2 * HIDDEN];
    output_weights.copy_from_slice(&w.output_weights);
    Ok(Network {
        hidden_weights,
        hidden_bias,
        output_weights,
        output_bias: w.output_bias,
    })
}

/// Writes a network.
pub fn encode(net: &Network) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(SIZE);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    let weights = net
        .hidden_weights
        .iter()
        .flatten()
        .chain(&net.hidden_bias)
        .chain(&net.output_weights);
    for w in weights {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes.extend_from_slice(&net.output_bias.to_le_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network;

    #[test]
    fn a_network_survives_encoding() {
        let net = network();
        let bytes = encode(net);
        assert_eq!(bytes.len(), SIZE);
        let back = decode(&bytes).unwrap();
        assert!(back.hidden_weights == net.hidden_weights);
        assert_eq!(back.hidden_bias, net.hidden_bias);
        assert_eq!(back.output_weights, net.output_weights);
        assert_eq!(back.output_bias, net.output_bias);
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(decode(b"PVNN").err().unwrap().contains("header"));
        let mut bytes = encode(network());
        bytes[0] = b'X';
        assert!(decode(&bytes).err().unwrap().contains("PVNN"));
        let mut bytes = encode(network());
        bytes[8] = 7;
        assert!(
            decode(&bytes)
                .err()
                .unwrap()
                .contains("7 hidden neurons has")
        );
        let mut bytes = encode(network());
        bytes[4] = 9;
        assert!(decode(&bytes).err().unwrap().contains("format 9"));
    }
}
