//! Tests of training: reading data, fitting, growing and quantizing networks.

use shakmaty::Color;

use pivot::game::Game;
use pivot::nnue::file::Weights;
use pivot::nnue::{
    BUCKETS, HIDDEN, INPUTS, NO_KING_BUCKETS, Network, SCALE, bucket, check_king_map, relative,
};

use super::float_net::Activations;
use super::*;

const LINES: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5
4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0
3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | -900 | 0.0
4k3/8/8/8/8/8/8/3RK3 b - - 0 1 | 500 | 1-0
not a fen | 0 | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 0.5
4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 2.0
4k3/8/8/8/8/8/4r3/4K3 w - - 0 1 | 0 | 0.5
";

#[test]
fn bad_lines_are_counted_not_used() {
    let mut data = Data::default();
    let mut skipped = Skipped::default();
    data.load(LINES, 0.5, false, &mut skipped);
    assert_eq!(data.len(), 4);
    assert_eq!(skipped.malformed, 3);
    assert_eq!(skipped.in_check, 1);
    // Black to move in a won position for White: a low target.
    assert!(data.entries[3].target < 0.2);
    assert!(data.entries[1].target > 0.9);
}

/// Training lowers the error, and the quantized network agrees with the float one.
#[test]
fn training_fits_and_quantizes() {
    let mut data = Data::default();
    let mut skipped = Skipped::default();
    data.load(&LINES.repeat(60), 0.5, false, &mut skipped);
    let settings = Settings {
        epochs: 30,
        batch: 64,
        rate: 0.01,
        threads: 2,
        seed: 7,
        init: None,
        freeze_king_buckets: false,
        anchor: 0.0,
        head_rate: 0.0,
    };
    let first = FloatNet::new(7).error(&data, &data.entries);
    let mut last = f64::MAX;
    let net = train(&data, &settings, |e| last = e.validation_error);
    assert!(last < first / 2.0, "{first} -> {last}");
    let quantized = net.quantize();
    let pos = Game::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap().0;
    let float_cp = {
        let e = data.entries[1];
        let feats = data.features_of(&e);
        net.forward(feats, &mut Activations::new(&net)) * SCALE as f32
    };
    let int_cp = quantized.eval_from_scratch(pos.pos()) as f32;
    assert!(
        (float_cp - int_cp).abs() < 10.0 + float_cp.abs() / 100.0,
        "{float_cp} vs {int_cp}"
    );
}

/// A position's error moves only its own bucket's output layer.
#[test]
fn each_position_trains_its_own_bucket() {
    let mut data = Data::default();
    let mut skipped = Skipped::default();
    data.load(LINES, 0.0, false, &mut skipped);
    let net = FloatNet::new(5);
    let mut grad = net.zeros_like();
    net.backward(&data, &data.entries, &mut grad);
    // The start position after 1.e4 has 32 pieces; the others have two or three.
    let touched: Vec<usize> = (0..BUCKETS)
        .filter(|&b| grad.b2[b] != 0.0 || grad.layer(b).0.iter().any(|&g| g != 0.0))
        .collect();
    assert_eq!(touched, vec![bucket(3), bucket(32)]);
}

/// Training can start from a shipped network: its weights come back exactly as they were.
#[test]
fn a_network_dequantizes_to_itself() {
    let shipped = pivot::nnue::network();
    let back = FloatNet::from_weights(&weights_of(shipped), 1)
        .unwrap()
        .quantize();
    assert_eq!(
        pivot::nnue::file::encode(&back),
        pivot::nnue::file::encode(shipped)
    );
}

/// Training from a network's weights starts at that network's error, not a random one's,
/// and `validation_error` reports that starting error on the positions training holds out.
#[test]
fn training_starts_from_the_given_weights() {
    let mut data = Data::default();
    let mut skipped = Skipped::default();
    data.load(LINES, 0.0, false, &mut skipped);
    let shipped = plain_built_in();
    let before = validation_error(&shipped, &data);
    assert_eq!(before, shipped.error(&data, &data.entries));
    let settings = Settings {
        epochs: 1,
        batch: 64,
        rate: 1e-9,
        threads: 1,
        seed: 7,
        init: Some(shipped),
        freeze_king_buckets: false,
        anchor: 0.0,
        head_rate: 0.0,
    };
    let mut after = f64::MAX;
    train(&data, &settings, |e| after = e.validation_error);
    assert!((after - before).abs() < 1e-4, "{before} -> {after}");
    let random = FloatNet::new(7).error(&data, &data.entries);
    assert!((random - before).abs() > 1e-3, "{random} vs {before}");
}

/// With validation files, training uses every position before them and validation exactly
/// theirs; without, the last 2% are held out.
#[test]
fn validation_files_replace_the_held_out_positions() {
    let mut skipped = Skipped::default();
    let mut held_out = Data::default();
    held_out.load(&LINES.repeat(25), 0.0, false, &mut skipped);
    assert_eq!(held_out.len(), 100);
    assert_eq!(held_out.validation_len(), 2);
    assert_eq!(split(&held_out).0.len(), 98);

    let mut separate = Data::default();
    separate.load(&LINES.repeat(25), 0.0, false, &mut skipped);
    separate.start_validation();
    separate.load(LINES, 0.0, false, &mut skipped);
    let (training, validation) = split(&separate);
    assert_eq!((training.len(), validation.len()), (100, 4));
    assert_eq!(separate.validation_len(), 4);
    let net = plain_built_in();
    assert_eq!(
        validation_error(&net, &separate),
        net.error(&separate, &separate.entries[100..])
    );
}

#[test]
fn every_king_layout_is_a_valid_map() {
    for name in KING_LAYOUTS.split(", ") {
        let (n, map) = king_layout(name).unwrap();
        check_king_map(n, &map).unwrap();
    }
    assert!(king_layout("thirty-two").is_none());
    // From each side's own view: White's king on g1 and Black's on g8 share a bucket.
    let (_, map) = king_layout("four").unwrap();
    assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 1);
    assert_eq!(map[relative(Color::Black, shakmaty::Square::G8)], 1);
    assert_eq!(map[relative(Color::Black, shakmaty::Square::B7)], 0);
    assert_eq!(map[relative(Color::White, shakmaty::Square::E4)], 3);
    // `twelve` and `sixteen` tell g1 from g2, and `sixteen` the fourth rank from the fifth.
    let (_, map) = king_layout("twelve").unwrap();
    assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 3);
    assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 7);
    assert_eq!(map[relative(Color::Black, shakmaty::Square::A3)], 8);
    let (_, map) = king_layout("sixteen").unwrap();
    assert_eq!(map[relative(Color::Black, shakmaty::Square::G7)], 7);
    assert_eq!(map[relative(Color::White, shakmaty::Square::D4)], 9);
    assert_eq!(map[relative(Color::White, shakmaty::Square::D5)], 13);
    // `twenty` tells g1 from h1 and e1 from f1 but not g2 from h2; `twenty-four` does.
    let (_, map) = king_layout("twenty").unwrap();
    assert_eq!(map[relative(Color::White, shakmaty::Square::G1)], 6);
    assert_eq!(map[relative(Color::Black, shakmaty::Square::H8)], 7);
    assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 11);
    assert_eq!(map[relative(Color::White, shakmaty::Square::H2)], 11);
    assert_eq!(map[relative(Color::White, shakmaty::Square::A8)], 16);
    let (_, map) = king_layout("twenty-four").unwrap();
    assert_eq!(map[relative(Color::White, shakmaty::Square::G2)], 14);
    assert_eq!(map[relative(Color::Black, shakmaty::Square::H7)], 15);
    assert_eq!(map[relative(Color::White, shakmaty::Square::E4)], 18);
    assert_eq!(map[relative(Color::White, shakmaty::Square::H5)], 23);
}

/// The shipped network grown into king buckets evaluates the data as it did; training
/// moves only the buckets its positions' kings stand in; and the trained network goes
/// through the engine's file format and back unchanged.
#[test]
fn king_buckets_grow_train_and_quantize() {
    let shipped = plain_built_in();
    let (n, map) = king_layout("four").unwrap();
    let grown = shipped.clone().with_king_buckets(n, map, false).unwrap();
    let (mut flat, mut bucketed) = (Data::default(), Data::new(map));
    let mut skipped = Skipped::default();
    flat.load(LINES, 0.0, true, &mut skipped);
    bucketed.load(LINES, 0.0, true, &mut skipped);
    assert_same_evals((&shipped, &flat), (&grown, &bucketed), 1e-6);
    // Every king in LINES stands on its home ranks: buckets 0 and 1 only.
    let mut grad = grown.zeros_like();
    grown.backward(&bucketed, &bucketed.entries, &mut grad);
    let moved = |b: usize| {
        grad.w1[b * INPUTS * HIDDEN..][..INPUTS * HIDDEN]
            .iter()
            .any(|&g| g != 0.0)
    };
    assert_eq!((0..n).filter(|&b| moved(b)).collect::<Vec<_>>(), vec![0, 1]);
    let settings = Settings {
        epochs: 2,
        batch: 4,
        rate: 0.001,
        threads: 2,
        seed: 7,
        init: Some(grown),
        freeze_king_buckets: false,
        anchor: 0.0,
        head_rate: 0.0,
    };
    let trained = train(&bucketed, &settings, |_| {});
    let bytes = pivot::nnue::file::encode(&trained.quantize());
    let back =
        FloatNet::from_weights(&pivot::nnue::file::decode_weights(&bytes).unwrap(), 1).unwrap();
    assert_eq!((back.king_buckets(), back.king_map()), (n, map));
    assert_eq!(pivot::nnue::file::encode(&back.quantize()), bytes);
    assert!(
        back.with_king_buckets(2, king_layout("halves").unwrap().1, false)
            .is_err()
    );
}

/// A network with king buckets splits into finer ones (`four` into `eight`, `eight` into
/// `twelve`, `twelve` into `sixteen`, on to `twenty` and `twenty-four`) and evaluates every
/// position as before, but not into a layout that cuts across its buckets.
#[test]
fn king_buckets_split_into_finer_ones_only() {
    let text = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 50 | 1.0\n\
                8/8/2k5/8/3P4/8/5K2/8 b - - 0 1 | -20 | 0.5\n\
                r3k3/8/8/8/8/8/1K6/8 w - - 0 1 | -300 | 0.0\n\
                8/8/8/2k5/8/6K1/8/8 w - - 0 1 | 0 | 0.5\n\
                8/5k2/8/8/1K6/8/8/8 b - - 0 1 | 10 | 0.5\n";
    let data_for = |map| {
        let mut data = Data::new(map);
        data.load(LINES, 0.0, true, &mut Skipped::default());
        data.load(text, 0.0, true, &mut Skipped::default());
        data
    };
    let (n4, map4) = king_layout("four").unwrap();
    let mut coarse = plain_built_in().with_king_buckets(n4, map4, false).unwrap();
    for finer in ["eight", "twelve", "sixteen", "twenty", "twenty-four"] {
        // Tell the buckets apart, so that a split copying the wrong one shows.
        for (b, rows) in coarse.w1.chunks_exact_mut(INPUTS * HIDDEN).enumerate() {
            rows.iter_mut().for_each(|x| *x += 0.01 * b as f32);
        }
        let (n, map) = king_layout(finer).unwrap();
        let fine = coarse.clone().with_king_buckets(n, map, false).unwrap();
        assert_eq!((fine.king_buckets(), fine.king_map()), (n, map), "{finer}");
        let coarse_data = data_for(coarse.king_map());
        assert_same_evals((&coarse, &coarse_data), (&fine, &data_for(map)), 1e-5);
        let Err(err) = fine.clone().with_king_buckets(n4, map4, false) else {
            panic!("{finer} king buckets cannot merge into four");
        };
        assert!(err.contains("spans more than one"), "{finer}: {err}");
        coarse = fine;
    }
}

/// Grown with a shared part, the network evaluates and quantizes as the plain copies do;
/// in training every position moves the shared part, so that a bucket none of the
/// positions' kings stand in still learns, while its own part stays at zero.
#[test]
fn shared_king_weights_start_equal_and_learn_from_every_bucket() {
    let shipped = plain_built_in();
    let (n, map) = king_layout("four").unwrap();
    let copies = shipped.clone().with_king_buckets(n, map, false).unwrap();
    let shared = shipped.with_king_buckets(n, map, true).unwrap();
    assert_eq!(
        pivot::nnue::file::encode(&shared.quantize()),
        pivot::nnue::file::encode(&copies.quantize())
    );
    let (trained, _) = train_briefly_on_lines(&shared, false, 0.0);
    let own = |net: &FloatNet, b: usize| net.w1[b * INPUTS * HIDDEN..][..INPUTS * HIDDEN].to_vec();
    // Every king in LINES stands on its home ranks: buckets 2 and 3 see no position.
    assert!(own(&trained, 0).iter().any(|&w| w != 0.0));
    assert!(own(&trained, 3).iter().all(|&w| w == 0.0));
    assert_ne!(trained.factor, shared.factor);
    let before = shared.effective();
    let after = trained.effective();
    assert_ne!(own(&after, 3), own(&before, 3));
}

/// A bucketed network given a shared part at zero evaluates as before; with its buckets
/// frozen, training moves only the shared part, the biases and the output layers.
#[test]
fn frozen_king_buckets_train_only_the_shared_part() {
    let (n, map) = king_layout("four").unwrap();
    let bucketed = plain_built_in().with_king_buckets(n, map, false).unwrap();
    let factored = bucketed.clone().with_king_buckets(n, map, true).unwrap();
    assert_eq!(factored.factor.len(), INPUTS * HIDDEN);
    assert!(factored.factor.iter().all(|&w| w == 0.0));
    assert_eq!(
        pivot::nnue::file::encode(&factored.quantize()),
        pivot::nnue::file::encode(&bucketed.quantize())
    );
    let (trained, data) = train_briefly_on_lines(&factored, true, 0.0);
    assert_eq!(trained.w1, factored.w1);
    assert_ne!(trained.factor, factored.factor);
    assert_ne!(trained.w2, factored.w2);
    let error = |net: &FloatNet| net.effective().error(&data, &data.entries);
    assert!(error(&trained) < error(&factored));
}

/// The anchor keeps a refined network nearer its start, and it still learns.
#[test]
fn an_anchor_holds_the_weights_near_their_start() {
    let start = plain_built_in();
    let distance = |net: &FloatNet| -> f64 {
        net.params()
            .zip(start.params())
            .map(|(a, b)| f64::from(a - b).powi(2))
            .sum()
    };
    let (free, data) = train_briefly_on_lines(&start, false, 0.0);
    let (anchored, _) = train_briefly_on_lines(&start, false, 200.0);
    assert!(distance(&anchored) > 0.0);
    assert!(
        distance(&anchored) < distance(&free) / 2.0,
        "{} against {}",
        distance(&anchored),
        distance(&free)
    );
    let error = |net: &FloatNet| net.error(&data, &data.entries);
    assert!(error(&anchored) < error(&start));
}

/// `init` trained for two epochs on LINES (mirrored, read for its king map), and the data.
fn train_briefly_on_lines(
    init: &FloatNet,
    freeze_king_buckets: bool,
    anchor: f32,
) -> (FloatNet, Data) {
    let mut data = Data::new(init.king_map());
    data.load(LINES, 0.0, true, &mut Skipped::default());
    let settings = Settings {
        epochs: 2,
        batch: 2,
        rate: 0.001,
        threads: 2,
        seed: 7,
        init: Some(init.clone()),
        freeze_king_buckets,
        anchor,
        head_rate: 0.001,
    };
    (train(&data, &settings, |_| {}), data)
}

/// The built-in network's first king bucket as a float network without king buckets.
/// Asserts that two networks, each on the same positions read for its own king map,
/// evaluate every position alike, within `tolerance`.
fn assert_same_evals(
    (a, a_data): (&FloatNet, &Data),
    (b, b_data): (&FloatNet, &Data),
    tolerance: f32,
) {
    assert_eq!(a_data.len(), b_data.len());
    let (mut act_a, mut act_b) = (Activations::new(a), Activations::new(b));
    for (ea, eb) in a_data.entries.iter().zip(&b_data.entries) {
        let x = a.forward(a_data.features_of(ea), &mut act_a);
        let y = b.forward(b_data.features_of(eb), &mut act_b);
        assert!((x - y).abs() < tolerance, "{x} vs {y}");
    }
}

fn plain_built_in() -> FloatNet {
    FloatNet::from_weights(&weights_of(&pivot::nnue::network().king_bucket(0)), 1).unwrap()
}

fn weights_of(net: &Network) -> Weights {
    use pivot::nnue::file;
    file::decode_weights(&file::encode(net)).unwrap()
}

/// A network of half the width, widened: its neurons keep their weights, the new ones
/// start silent, so every position evaluates as the narrow network's neurons alone do.
#[test]
fn a_narrow_network_widens_without_changing_its_output() {
    let full = weights_of(&pivot::nnue::network().king_bucket(0));
    let h = HIDDEN / 2;
    let narrow = Weights {
        hidden: h,
        buckets: BUCKETS,
        king_buckets: 1,
        king_map: NO_KING_BUCKETS,
        hidden_weights: full
            .hidden_weights
            .chunks_exact(HIDDEN)
            .flat_map(|row| row[..h].to_vec())
            .collect(),
        hidden_bias: full.hidden_bias[..h].to_vec(),
        output_weights: full
            .output_weights
            .chunks_exact(2 * HIDDEN)
            .flat_map(|layer| [&layer[..h], &layer[HIDDEN..HIDDEN + h]].concat())
            .collect(),
        output_bias: full.output_bias.clone(),
        head: 0,
        head_weights: Vec::new(),
        head_output: Vec::new(),
        head_bias: Vec::new(),
    };
    let widened = FloatNet::from_weights(&narrow, 3).unwrap();
    // The same network with the second half's output weights zeroed.
    let mut reference = FloatNet::from_weights(&full, 3).unwrap();
    for layer in reference.w2.chunks_exact_mut(2 * HIDDEN) {
        for j in h..HIDDEN {
            layer[j] = 0.0;
            layer[HIDDEN + j] = 0.0;
        }
    }
    // The new neurons do get random input weights, so that training can move them.
    assert!(widened.w1[h..HIDDEN].iter().any(|&x| x != 0.0));
    let mut data = Data::default();
    let mut skipped = Skipped::default();
    data.load(LINES, 0.0, false, &mut skipped);
    let mut act = Activations::new(&widened);
    for e in &data.entries {
        let feats = data.features_of(e);
        let a = widened.forward(feats, &mut act);
        let b = reference.forward(feats, &mut act);
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }
    let wider = Weights {
        hidden: HIDDEN + 1,
        buckets: 1,
        king_buckets: 1,
        king_map: NO_KING_BUCKETS,
        hidden_weights: vec![0; INPUTS * (HIDDEN + 1)],
        hidden_bias: vec![0; HIDDEN + 1],
        output_weights: vec![0; 2 * (HIDDEN + 1)],
        output_bias: vec![0],
        head: 0,
        head_weights: Vec::new(),
        head_output: Vec::new(),
        head_bias: Vec::new(),
    };
    assert!(
        FloatNet::from_weights(&wider, 1)
            .err()
            .unwrap()
            .contains("cannot start")
    );
}

/// A second layer grown on a network starts silent: the network evaluates and quantizes
/// as before. Trained, it lowers the error, survives the file, and the engine's integer
/// evaluation follows the floating-point one.
#[test]
fn a_second_layer_grows_silently_then_learns() {
    let start = plain_built_in();
    let grown = start.clone().with_head(4, 9).unwrap();
    assert_eq!(grown.head(), 4);
    let mut data = Data::default();
    data.load(&LINES.repeat(20), 0.5, true, &mut Skipped::default());
    assert_eq!(
        grown.error(&data, &data.entries),
        start.error(&data, &data.entries)
    );
    let pos = Game::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap().0;
    let engine = |net: &FloatNet| net.quantize().eval_from_scratch(pos.pos());
    assert_eq!(engine(&grown), engine(&start));
    assert!(grown.clone().with_head(4, 1).is_ok());
    assert!(
        grown
            .clone()
            .with_head(8, 1)
            .err()
            .unwrap()
            .contains("already")
    );
    assert!(
        start
            .clone()
            .with_head(65, 1)
            .err()
            .unwrap()
            .contains("1 to 64")
    );
    let settings = Settings {
        epochs: 20,
        batch: 16,
        rate: 0.0,
        threads: 2,
        seed: 7,
        init: Some(grown.clone()),
        freeze_king_buckets: false,
        anchor: 0.0,
        head_rate: 0.01,
    };
    let trained = train(&data, &settings, |_| {});
    // Only the second layer moved (the rest had step 0, beyond the clip to ±1.98 that
    // every step applies), and it lowered the error.
    let moved = |a: &[f32], b: &[f32]| a.iter().zip(b).any(|(x, y)| (x - y).abs() > 0.01);
    assert!(!moved(&trained.w1, &grown.w1));
    assert!(!moved(&trained.w2, &grown.w2));
    assert!(trained.w4.iter().any(|&w| w != 0.0));
    let error = |net: &FloatNet| net.error(&data, &data.entries);
    assert!(error(&trained) < error(&grown) * 0.95);
    let bytes = pivot::nnue::file::encode(&trained.quantize());
    let back =
        FloatNet::from_weights(&pivot::nnue::file::decode_weights(&bytes).unwrap(), 1).unwrap();
    assert_eq!(pivot::nnue::file::encode(&back.quantize()), bytes);
    let e = data.entries[1];
    let float_cp =
        trained.forward(data.features_of(&e), &mut Activations::new(&trained)) * SCALE as f32;
    let int_cp = engine(&trained) as f32;
    assert!(
        (float_cp - int_cp).abs() < 10.0 + float_cp.abs() / 100.0,
        "{float_cp} vs {int_cp}"
    );
}

/// The backward pass's gradient of the second layer and of the layers under it matches
/// finite differences of the error.
#[test]
fn the_second_layer_backpropagates_its_gradient() {
    let mut net = plain_built_in().with_head(3, 5).unwrap();
    for (i, w) in net.w4.iter_mut().enumerate() {
        *w = 0.3 + 0.1 * (i % 5) as f32;
    }
    let mut data = Data::default();
    data.load(LINES, 0.5, false, &mut Skipped::default());
    let entries = &data.entries;
    let mut grad = net.zeros_like();
    net.backward(&data, entries, &mut grad);
    let n = entries.len() as f64;
    // One active second-layer neuron of the 32-piece position's bucket, and a hidden
    // neuron of that position.
    let b = bucket(32);
    let mut act = Activations::new(&net);
    net.forward(data.features_of(&entries[0]), &mut act);
    let k = act.head.iter().position(|&h| h > 0.05 && h < 0.95).unwrap();
    let i = b * 3 + k;
    let j = (0..HIDDEN)
        .find(|&j| act.us[j] > 0.05 && act.us[j] < 0.95)
        .unwrap();
    let f = usize::from(data.features_of(&entries[0])[0].0);
    type Pick = fn(&mut FloatNet, usize, usize, usize, usize) -> &mut f32;
    let picks: [(&str, Pick); 5] = [
        ("w4", |n, i, _, _, _| &mut n.w4[i]),
        ("b3", |n, i, _, _, _| &mut n.b3[i]),
        ("w3", |n, i, j, _, _| &mut n.w3[i * 2 * HIDDEN + j]),
        ("b1", |n, _, j, _, _| &mut n.b1[j]),
        ("w1", |n, _, j, f, _| &mut n.w1[f * HIDDEN + j]),
    ];
    for (name, pick) in picks {
        let analytic = f64::from(*pick(&mut grad, i, j, f, 0));
        let eps = 1e-3;
        let mut plus = net.clone();
        *pick(&mut plus, i, j, f, 0) += eps;
        let mut minus = net.clone();
        *pick(&mut minus, i, j, f, 0) -= eps;
        let numeric =
            (plus.error(&data, entries) - minus.error(&data, entries)) * n / (2.0 * f64::from(eps));
        assert!(
            (analytic - numeric).abs() <= 0.05 * numeric.abs().max(1e-4),
            "{name}: {analytic} vs {numeric}"
        );
    }
}
