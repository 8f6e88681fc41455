//! The network file: `PVNN`, format version, hidden size and (from format 2) output buckets
//! (u32 each); from format 3 the number of king buckets (u32) and the king map (64 bytes, the
//! bucket of each square of a side's own king from that side); then the quantized weights
//! little-endian: hidden weights input by input (i16; king bucket 0's inputs, then bucket
//! 1's, …), hidden biases (i16), each bucket's output weights (i16), each bucket's output bias
//! (i32). Format 1 has one output layer and no bucket count; it is read as that layer in every
//! bucket. A network without king buckets is written in format 2. Format 4 is format 3 with a
//! second layer: after the king map the neurons per output bucket (u32); after the output
//! weights each bucket's neurons' input weights (i16, 2 × hidden per neuron, side to move's
//! half first), then their output weights (i16); after the output biases their biases (i32).

use super::{
    BUCKETS, HIDDEN, INPUTS, KingMap, MAX_HEAD, MAX_HEAD_WEIGHT, MAX_OUTPUT_WEIGHT,
    NO_KING_BUCKETS, Network, check_king_map,
};

const MAGIC: &[u8; 4] = b"PVNN";
const VERSION: u32 = 2;
/// The format of a network with king buckets.
const KING_VERSION: u32 = 3;
/// The format of a network with a second layer.
const HEAD_VERSION: u32 = 4;

/// The size in bytes of a format-2 network file of `hidden` neurons per side and `buckets`
/// output layers.
pub const fn size_for(hidden: usize, buckets: usize) -> usize {
    16 + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The size in bytes of a format-3 network file (with `king_buckets` king buckets).
/// That is format 2's size plus the king-bucket count, the map and the extra input columns.
pub const fn king_size_for(hidden: usize, buckets: usize, king_buckets: usize) -> usize {
    size_for(hidden, buckets) + 4 + 64 + 2 * INPUTS * (king_buckets - 1) * hidden
}

/// The size in bytes of a format-4 network file (with a second layer of `head` neurons per
/// output bucket).
pub const fn head_size_for(
    hidden: usize,
    buckets: usize,
    king_buckets: usize,
    head: usize,
) -> usize {
    king_size_for(hidden, buckets, king_buckets) + 4 + buckets * head * (2 * 2 * hidden + 2 + 4)
}

/// The size in bytes of a format-1 file (one output layer).
const fn v1_size_for(hidden: usize) -> usize {
    12 + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// The size in bytes of this build's network file.
pub const SIZE: usize = size_for(HIDDEN, BUCKETS);

/// The widest hidden layer a file may claim (a guard against a corrupt header).
const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may claim.
const MAX_BUCKETS: usize = 64;

/// A network file's weights at the hidden size and bucket count the file gives, which need
/// not be this build's: training can start a wider network from a narrower one, and a
/// bucketed one from a single output layer.
pub struct Weights {
    pub hidden: usize,
    pub buckets: usize,
    /// King buckets (1: none) and the king map.
    pub king_buckets: usize,
    pub king_map: KingMap,
    /// `INPUTS × king_buckets` rows of `hidden` weights each.
    pub hidden_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// Per bucket, the side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: Vec<i32>,
    /// Second-layer neurons per output bucket (0: none), and per bucket and neuron their
    /// `2 × hidden` input weights, output weight and bias.
    pub head: usize,
    pub head_weights: Vec<i16>,
    pub head_output: Vec<i16>,
    pub head_bias: Vec<i32>,
}

impl Weights {
    /// Whether this build's `BUCKETS` output layers can be filled from these weights: they
    /// have as many, or a single one for every bucket.
    pub fn buckets_fit(&self) -> bool {
        self.buckets == 1 || self.buckets == BUCKETS
    }

    /// The file's bucket that fills this build's bucket `b`: itself, or the one of a
    /// single-layer file.
    pub fn source_bucket(&self, b: usize) -> usize {
        if self.buckets == 1 { 0 } else { b }
    }

    /// The output layer that fills this build's bucket `b`: its weights (the side to move's
    /// `hidden` first) and bias. A single-layer file fills every bucket with its one layer.
    pub fn output_layer(&self, b: usize) -> (&[i16], i32) {
        let from = self.source_bucket(b);
        let n = 2 * self.hidden;
        (
            &self.output_weights[from * n..][..n],
            self.output_bias[from],
        )
    }
}

/// Reads a network file of any hidden size and bucket count, or says why the bytes are not one.
pub fn decode_weights(bytes: &[u8]) -> Result<Weights, String> {
    if bytes.len() < 12 || &bytes[..4] != MAGIC {
        return Err(format!(
            "not a Pivot network file (no PVNN header in its {} bytes)",
            bytes.len()
        ));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(4);
    if !(1..=HEAD_VERSION).contains(&version) {
        return Err(format!(
            "network format {version}; this build reads formats 1 to {HEAD_VERSION}"
        ));
    }
    let hidden = word(8) as usize;
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(format!(
            "the header claims {hidden} hidden neurons; 1 to {MAX_HIDDEN} can be read"
        ));
    }
    let (mut king_buckets, mut king_map, mut head) = (1, NO_KING_BUCKETS, 0);
    let (buckets, header, expected) = if version == 1 {
        (1, 12, v1_size_for(hidden))
    } else {
        if bytes.len() < 16 {
            return Err("the header ends before its bucket count".to_string());
        }
        let buckets = word(12) as usize;
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(format!(
                "the header claims {buckets} output buckets; 1 to {MAX_BUCKETS} can be read"
            ));
        }
        if version >= KING_VERSION {
            if bytes.len() < 84 {
                return Err("the header ends before its king map".to_string());
            }
            king_buckets = word(16) as usize;
            king_map.copy_from_slice(&bytes[20..84]);
            check_king_map(king_buckets, &king_map)?;
            if version == HEAD_VERSION {
                if bytes.len() < 88 {
                    return Err("the header ends before its second layer's size".to_string());
                }
                head = word(84) as usize;
                if head == 0 || head > MAX_HEAD {
                    return Err(format!(
                        "the header claims a second layer of {head} neurons; 1 to {MAX_HEAD} \
                         can be read"
                    ));
                }
                (
                    buckets,
                    88,
                    head_size_for(hidden, buckets, king_buckets, head),
                )
            } else {
                (buckets, 84, king_size_for(hidden, buckets, king_buckets))
            }
        } else {
            (buckets, 16, size_for(hidden, buckets))
        }
    };
    if bytes.len() != expected {
        let kings = if king_buckets > 1 {
            format!(" with {king_buckets} king buckets")
        } else {
            String::new()
        };
        let second = if head > 0 {
            format!(" and a second layer of {head}")
        } else {
            String::new()
        };
        return Err(format!(
            "a network of {hidden} hidden neurons and {buckets} buckets{kings}{second} has \
             {expected} bytes, this file {}",
            bytes.len()
        ));
    }
    let mut at = header;
    let mut take = |n: usize| -> Vec<i16> {
        let v = bytes[at..at + 2 * n]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        at += 2 * n;
        v
    };
    let hidden_weights = take(INPUTS * king_buckets * hidden);
    let hidden_bias = take(hidden);
    let output_weights = take(buckets * 2 * hidden);
    let head_weights = take(buckets * head * 2 * hidden);
    let head_output = take(buckets * head);
    let ints = expected - 4 * buckets * (1 + head);
    let int = |i: usize| word(ints + 4 * i) as i32;
    let output_bias = (0..buckets).map(int).collect();
    let head_bias = (buckets..buckets * (1 + head)).map(int).collect();
    Ok(Weights {
        hidden,
        buckets,
        king_buckets,
        king_map,
        hidden_weights,
        hidden_bias,
        output_weights,
        output_bias,
        head,
        head_weights,
        head_output,
        head_bias,
    })
}

/// Reads a network of this build's hidden size or a narrower one, or says why the bytes are
/// not one. A narrower network's missing neurons are silent (no weights, no bias, no output
/// weight), so it evaluates exactly as it did. A file with one output layer fills every
/// bucket with it.
pub fn decode(bytes: &[u8]) -> Result<Network, String> {
    let w = decode_weights(bytes)?;
    if w.hidden > HIDDEN {
        return Err(format!(
            "a network of {} hidden neurons; this build reads up to {HIDDEN}",
            w.hidden
        ));
    }
    if !w.buckets_fit() {
        return Err(format!(
            "a network of {} output buckets; this build reads 1 or {BUCKETS}",
            w.buckets
        ));
    }
    if let Some(w) = w
        .head_weights
        .iter()
        .chain(&w.head_output)
        .find(|w| w.unsigned_abs() > MAX_HEAD_WEIGHT.unsigned_abs())
    {
        return Err(format!(
            "a second-layer weight of {w}; this build reads -{MAX_HEAD_WEIGHT} to \
             {MAX_HEAD_WEIGHT}"
        ));
    }
    if let Some(w) = w
        .output_weights
        .iter()
        .find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
    {
        return Err(format!(
            "an output weight of {w}; this build reads -{MAX_OUTPUT_WEIGHT} to {MAX_OUTPUT_WEIGHT}"
        ));
    }
    let h = w.hidden;
    let mut hidden_weights = vec![[0i16; HIDDEN]; INPUTS * w.king_buckets];
    for (column, row) in hidden_weights
        .iter_mut()
        .zip(w.hidden_weights.chunks_exact(h))
    {
        column[..h].copy_from_slice(row);
    }
    let mut hidden_bias = [0i16; HIDDEN];
    hidden_bias[..h].copy_from_slice(&w.hidden_bias);
    let mut output_weights = [[0i16; 2 * HIDDEN]; BUCKETS];
    let mut output_bias = [0i32; BUCKETS];
    for (b, (weights, bias)) in output_weights.iter_mut().zip(&mut output_bias).enumerate() {
        let (layer, layer_bias) = w.output_layer(b);
        pad_halves(weights, layer);
        *bias = layer_bias;
    }
    // Each neuron's row padded to this build's width like the output layers.
    let mut head_weights = vec![0i16; BUCKETS * w.head * 2 * HIDDEN];
    let (mut head_output, mut head_bias) = (Vec::new(), Vec::new());
    for b in 0..BUCKETS {
        let from = w.source_bucket(b);
        let rows = w.head_weights[from * w.head * 2 * h..].chunks_exact(2 * h);
        let new_rows = head_weights[b * w.head * 2 * HIDDEN..].chunks_exact_mut(2 * HIDDEN);
        for (new, old) in new_rows.zip(rows).take(w.head) {
            pad_halves(new, old);
        }
        head_output.extend_from_slice(&w.head_output[from * w.head..][..w.head]);
        head_bias.extend_from_slice(&w.head_bias[from * w.head..][..w.head]);
    }
    Ok(Network {
        hidden_weights,
        hidden_bias,
        output_weights,
        output_bias,
        head: w.head,
        head_weights,
        head_bias,
        head_output,
        king_buckets: w.king_buckets,
        king_map: w.king_map,
    })
}

/// Copies `old`, a row of two halves (side to move's, other side's) of a network possibly
/// narrower than this build, into `new`'s two halves of `HIDDEN`; the rest stays as it is.
fn pad_halves(new: &mut [i16], old: &[i16]) {
    let (us, them) = new.split_at_mut(HIDDEN);
    let (old_us, old_them) = old.split_at(old.len() / 2);
    us[..old_us.len()].copy_from_slice(old_us);
    them[..old_them.len()].copy_from_slice(old_them);
}

/// Writes a network: format 4 with a second layer, else format 3 with king buckets, else
/// format 2.
pub fn encode(net: &Network) -> Vec<u8> {
    let head = net.head > 0;
    let kings = head || net.king_buckets > 1;
    let mut bytes = Vec::with_capacity(head_size_for(HIDDEN, BUCKETS, net.king_buckets, net.head));
    bytes.extend_from_slice(MAGIC);
    let version = if head {
        HEAD_VERSION
    } else if kings {
        KING_VERSION
    } else {
        VERSION
    };
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    bytes.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
    if kings {
        bytes.extend_from_slice(&(net.king_buckets as u32).to_le_bytes());
        bytes.extend_from_slice(&net.king_map);
    }
    if head {
        bytes.extend_from_slice(&(net.head as u32).to_le_bytes());
    }
    let weights = net
        .hidden_weights
        .iter()
        .flatten()
        .chain(&net.hidden_bias)
        .chain(net.output_weights.iter().flatten())
        .chain(&net.head_weights)
        .chain(&net.head_output);
    for w in weights {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    for b in net.output_bias.iter().chain(&net.head_bias) {
        bytes.extend_from_slice(&b.to_le_bytes());
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network;

    #[test]
    fn a_network_survives_encoding() {
        let net = &network().king_bucket(0);
        let bytes = encode(net);
        assert_eq!(bytes.len(), SIZE);
        let back = decode(&bytes).unwrap();
        assert!(back.hidden_weights == net.hidden_weights);
        assert_eq!(back.hidden_bias, net.hidden_bias);
        assert_eq!(back.output_weights, net.output_weights);
        assert_eq!(back.output_bias, net.output_bias);
    }

    /// A network with king buckets is written in format 3 and read back as it was; a bad
    /// king map or count is refused with a reason.
    #[test]
    fn a_king_bucketed_network_survives_encoding() {
        let map: KingMap = std::array::from_fn(|sq| (sq % 8 / 2) as u8);
        let mut net = network().king_bucket(0).with_king_buckets(4, map).unwrap();
        net.hidden_weights[INPUTS * 3 + 5][1] = 77;
        let bytes = encode(&net);
        assert_eq!(bytes.len(), king_size_for(HIDDEN, BUCKETS, 4));
        assert_eq!(&bytes[4..8], &KING_VERSION.to_le_bytes());
        let back = decode(&bytes).unwrap();
        assert!(back.hidden_weights == net.hidden_weights);
        assert_eq!((back.king_buckets, back.king_map), (4, map));
        assert_eq!(encode(&back), bytes);
        let w = decode_weights(&bytes).unwrap();
        assert_eq!((w.king_buckets, w.king_map), (4, map));
        let mut bad = bytes.clone();
        bad[20] = 4;
        assert!(decode(&bad).err().unwrap().contains("names bucket 4"));
        let mut bad = bytes.clone();
        bad[16..20].copy_from_slice(&33u32.to_le_bytes());
        assert!(decode(&bad).err().unwrap().contains("33 king buckets"));
        let mut bad = bytes.clone();
        bad[16..20].copy_from_slice(&5u32.to_le_bytes());
        assert!(
            decode(&bad)
                .err()
                .unwrap()
                .contains("bucket 4 has no square")
        );
        let mut bad = bytes.clone();
        bad.truncate(bytes.len() - 2);
        assert!(
            decode(&bad)
                .err()
                .unwrap()
                .contains("with 4 king buckets has")
        );
        assert!(decode(&bytes[..50]).err().unwrap().contains("king map"));
    }

    /// A network with a second layer is written in format 4 and read back as it was; a bad
    /// layer size or an out-of-range weight in it is refused with a reason.
    #[test]
    fn a_network_with_a_second_layer_survives_encoding() {
        let head = 3;
        let rows = BUCKETS * head * 2 * HIDDEN;
        let mut net = network().with_head(
            head,
            (0..rows).map(|i| (i % 201) as i16 - 100).collect(),
            (0..BUCKETS * head).map(|i| i as i32 * 1000 - 7).collect(),
        );
        net.head_output[5] = -33;
        let bytes = encode(&net);
        assert_eq!(
            bytes.len(),
            head_size_for(HIDDEN, BUCKETS, net.king_buckets, head)
        );
        assert_eq!(&bytes[4..8], &HEAD_VERSION.to_le_bytes());
        let back = decode(&bytes).unwrap();
        assert_eq!(back.head, head);
        assert_eq!(back.head_weights, net.head_weights);
        assert_eq!(back.head_output, net.head_output);
        assert_eq!(back.head_bias, net.head_bias);
        assert_eq!(back.output_bias, net.output_bias);
        assert!(back.hidden_weights == net.hidden_weights);
        assert_eq!(encode(&back), bytes);
        let mut bad = bytes.clone();
        bad[84..88].copy_from_slice(&65u32.to_le_bytes());
        assert!(
            decode(&bad)
                .err()
                .unwrap()
                .contains("second layer of 65 neurons")
        );
        let mut bad = bytes.clone();
        bad[84..88].copy_from_slice(&4u32.to_le_bytes());
        assert!(
            decode(&bad)
                .err()
                .unwrap()
                .contains("and a second layer of 4 has")
        );
        let mut bad = bytes.clone();
        let first_head = king_size_for(HIDDEN, BUCKETS, net.king_buckets) + 4 - 4 * BUCKETS;
        bad[first_head..first_head + 2].copy_from_slice(&(-1100i16).to_le_bytes());
        assert!(
            decode(&bad)
                .err()
                .unwrap()
                .contains("second-layer weight of -1100")
        );
        assert!(
            decode(&bytes[..86])
                .err()
                .unwrap()
                .contains("second layer's size")
        );
    }

    /// A format-1 file (one output layer) is read with that layer in every bucket.
    #[test]
    fn a_single_output_file_fills_every_bucket() {
        let net = &network().king_bucket(0);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for w in net
            .hidden_weights
            .iter()
            .flatten()
            .chain(&net.hidden_bias)
            .chain(&net.output_weights[3])
        {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&net.output_bias[3].to_le_bytes());
        let back = decode(&bytes).unwrap();
        assert!(back.hidden_weights == net.hidden_weights);
        for b in 0..BUCKETS {
            assert_eq!(back.output_weights[b], net.output_weights[3]);
            assert_eq!(back.output_bias[b], net.output_bias[3]);
        }
        let w = decode_weights(&bytes).unwrap();
        assert_eq!((w.hidden, w.buckets), (HIDDEN, 1));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(decode(b"PVNN").err().unwrap().contains("header"));
        let mut bytes = encode(&network().king_bucket(0));
        bytes[0] = b'X';
        assert!(decode(&bytes).err().unwrap().contains("PVNN"));
        let mut bytes = encode(&network().king_bucket(0));
        bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
        assert!(
            decode(&bytes)
                .err()
                .unwrap()
                .contains("7 hidden neurons and 8 buckets has")
        );
        let mut bytes = encode(&network().king_bucket(0));
        bytes[4] = 9;
        assert!(decode(&bytes).err().unwrap().contains("format 9"));
        let mut bytes = encode(&network().king_bucket(0));
        bytes[12] = 0;
        assert!(decode(&bytes).err().unwrap().contains("0 output buckets"));
        let mut bytes = encode(&network().king_bucket(0));
        bytes[12] = 4;
        assert!(decode(&bytes).err().unwrap().contains("4 buckets has"));
        let mut bytes = encode(&network().king_bucket(0));
        let first_output = 16 + 2 * (INPUTS * HIDDEN + HIDDEN);
        bytes[first_output..first_output + 2].copy_from_slice(&200i16.to_le_bytes());
        assert!(
            decode(&bytes)
                .err()
                .unwrap()
                .contains("output weight of 200")
        );
    }

    /// A file narrower than this build is read with its missing neurons silent: it evaluates
    /// exactly as the full network does with those neurons' output weights at zero. A wider
    /// file is refused.
    #[test]
    fn a_narrower_network_is_padded_and_a_wider_one_refused() {
        let net = &network().king_bucket(0);
        let h = HIDDEN / 2;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(h as u32).to_le_bytes());
        bytes.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
        let rows = net.hidden_weights.iter().flat_map(|c| &c[..h]);
        let layers = net
            .output_weights
            .iter()
            .flat_map(|l| l[..h].iter().chain(&l[HIDDEN..HIDDEN + h]));
        for w in rows.chain(&net.hidden_bias[..h]).chain(layers) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for b in &net.output_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        let padded = decode(&bytes).unwrap();
        let mut silenced = net.clone();
        for layer in silenced.output_weights.iter_mut() {
            layer[h..HIDDEN].fill(0);
            layer[HIDDEN + h..].fill(0);
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            assert_eq!(
                padded.eval_from_scratch(&pos),
                silenced.eval_from_scratch(&pos),
                "{fen}"
            );
        }
        let wider = HIDDEN + 64;
        let mut bytes = vec![0u8; size_for(wider, BUCKETS)];
        bytes[..4].copy_from_slice(MAGIC);
        bytes[4..8].copy_from_slice(&VERSION.to_le_bytes());
        bytes[8..12].copy_from_slice(&(wider as u32).to_le_bytes());
        bytes[12..16].copy_from_slice(&(BUCKETS as u32).to_le_bytes());
        assert!(decode(&bytes).err().unwrap().contains("reads up to"));
    }
}
