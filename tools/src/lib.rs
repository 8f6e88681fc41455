//! Pivot's training pipeline, built beside the engine: `datagen` plays self-play games and
//! writes their positions, `rescore` searches them again deeper, `train` fits a network to
//! them in the format the engine reads, `split` holds out a round's last games for
//! validation, and `lookahead` blends each score with the scores its game went on to
//! reach. All of them share the data format of [`data`].

pub mod data;
pub mod datagen;
pub mod lookahead;
pub mod rescore;
pub mod split;
pub mod train;
