//! The UCI protocol: parsing input lines into commands and formatting output lines.

pub mod command;
pub mod fmt;
pub mod report;

pub use command::{Command, GoParams, parse};
