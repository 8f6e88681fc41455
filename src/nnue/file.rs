//! The network file: `PVNN`, format version and hidden size (u32), then the quantized weights
//! little-endian: hidden weights input by input (i16), hidden biases (i16), output weights
//! (i16), output bias (i32).

use super::{HIDDEN, INPUTS, Network};

const MAGIC: &[u8; 4] = b"PVNN";
const VERSION: u32 = 1;

/// The size in bytes of a network file.
pub const SIZE: usize = 12 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// Reads a network, or says why the bytes are not one.
pub fn decode(bytes: &[u8]) -> Result<Network, String> {
    if bytes.len() != SIZE {
        return Err(format!(
            "a network file has {SIZE} bytes, this one {}",
            bytes.len()
        ));
    }
    if &bytes[..4] != MAGIC {
        return Err("not a Pivot network file (no PVNN header)".to_string());
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(4) != VERSION || word(8) as usize != HIDDEN {
        return Err(format!(
            "network format {} with {} hidden neurons; this build reads format {VERSION} with {HIDDEN}",
            word(4),
            word(8)
        ));
    }
    let mut at = 12;
    let mut next = || {
        let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
        at += 2;
        v
    };
    let mut hidden_weights = vec![[0i16; HIDDEN]; INPUTS];
    for column in &mut hidden_weights {
        column.iter_mut().for_each(|w| *w = next());
    }
    let mut hidden_bias = [0i16; HIDDEN];
    hidden_bias.iter_mut().for_each(|w| *w = next());
    let mut output_weights = [0i16; 2 * HIDDEN];
    output_weights.iter_mut().for_each(|w| *w = next());
    let output_bias = word(SIZE - 4) as i32;
    Ok(Network {
        hidden_weights,
        hidden_bias,
        output_weights,
        output_bias,
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
        assert!(decode(b"PVNN").err().unwrap().contains("bytes"));
        let mut bytes = encode(network());
        bytes[0] = b'X';
        assert!(decode(&bytes).err().unwrap().contains("PVNN"));
        let mut bytes = encode(network());
        bytes[8] = 7;
        assert!(decode(&bytes).err().unwrap().contains("hidden"));
    }
}
