//! Growing a network without changing what it computes: a second layer with zero output
//! weights, king buckets that start as copies of the input weights they split.

use pivot::nnue::{BUCKETS, HIDDEN, INPUTS, KingMap, check_king_map};

use super::float_net::FloatNet;

impl FloatNet {
    /// This network with a second layer of `head` neurons per output bucket, if it has none:
    /// small random input weights from `seed`, biases at the middle of the clip and zero
    /// output weights, so that it evaluates every position as before until training puts the
    /// new neurons to use. A network with a second layer of that size stays as it is.
    pub fn with_head(mut self, head: usize, seed: u64) -> Result<FloatNet, String> {
        if head == self.head {
            return Ok(self);
        }
        if self.head != 0 {
            return Err(format!(
                "the network has a second layer of {} neurons already",
                self.head
            ));
        }
        if head == 0 || head > pivot::nnue::MAX_HEAD {
            return Err(format!(
                "a second layer of {head} neurons; 1 to {} are possible",
                pivot::nnue::MAX_HEAD
            ));
        }
        let random = FloatNet::new(seed ^ 0x5EC0_17D1);
        // Scaled so that a neuron's sum over a position's 256 squared activations (mostly
        // well below 1) stays within the clip's range at the start.
        self.w3 = random
            .w1
            .iter()
            .cycle()
            .take(BUCKETS * head * 2 * HIDDEN)
            .map(|w| w * 0.5)
            .collect();
        self.b3 = vec![0.5; BUCKETS * head];
        self.w4 = vec![0.0; BUCKETS * head];
        self.head = head;
        Ok(self)
    }

    /// This network with king buckets after `map`, each starting from this network's input
    /// weights, so that it evaluates every position as before; the same network if it
    /// already has exactly these buckets (with a shared part at zero added if `factored` asks
    /// for one and it has none). A network with king buckets can only be split
    /// further: each new bucket must lie within one of its buckets, whose weights it copies
    /// (`four` into `eight`, for one). A `factored` network keeps the weights of a network
    /// without buckets as the part all buckets share, trained on every position, and starts
    /// each bucket's own part at zero, trained on the positions of its king squares;
    /// otherwise each bucket starts from a copy and learns from its own positions alone.
    pub fn with_king_buckets(
        mut self,
        king_buckets: usize,
        map: KingMap,
        factored: bool,
    ) -> Result<FloatNet, String> {
        if (self.king_buckets, self.king_map) == (king_buckets, map) {
            if factored {
                self.add_shared_part();
            }
            return Ok(self);
        }
        check_king_map(king_buckets, &map)?;
        if self.king_buckets != 1 {
            return self.split_king_buckets(king_buckets, map, factored);
        }
        if factored {
            self.factor = std::mem::take(&mut self.w1);
            self.w1 = vec![0.0; king_buckets * self.factor.len()];
        } else {
            self.w1 = self.w1.repeat(king_buckets);
        }
        self.king_buckets = king_buckets;
        self.king_map = map;
        Ok(self)
    }

    /// This network's king buckets split into the finer ones of `map` (see
    /// [`FloatNet::with_king_buckets`]); a shared part, if any or if `factored` asks for one
    /// (then at zero), stays shared.
    fn split_king_buckets(
        mut self,
        king_buckets: usize,
        map: KingMap,
        factored: bool,
    ) -> Result<FloatNet, String> {
        let mut parent = vec![None; king_buckets];
        for (&new, &old) in map.iter().zip(&self.king_map) {
            match parent[usize::from(new)] {
                None => parent[usize::from(new)] = Some(usize::from(old)),
                Some(p) if p == usize::from(old) => {}
                Some(_) => {
                    return Err(format!(
                        "king bucket {new} of the new layout spans more than one of the \
                         network's {} king buckets",
                        self.king_buckets
                    ));
                }
            }
        }
        let rows = INPUTS * HIDDEN;
        let mut w1 = Vec::with_capacity(king_buckets * rows);
        // check_king_map gave every new bucket a square, so every parent is known.
        for old in parent.into_iter().flatten() {
            w1.extend_from_slice(&self.w1[old * rows..][..rows]);
        }
        if factored {
            self.add_shared_part();
        }
        self.w1 = w1;
        self.king_buckets = king_buckets;
        self.king_map = map;
        Ok(self)
    }

    /// Gives a network with king buckets a part all buckets share, at zero (so that it evaluates
    /// as before), unless it has one.
    fn add_shared_part(&mut self) {
        if self.factor.is_empty() {
            self.factor = vec![0.0; INPUTS * HIDDEN];
        }
    }
}
