//! The UCI protocol: parsing input lines into commands and formatting output lines.

pub mod command;
pub mod fmt;
pub mod keyboard;
pub mod report;
pub mod session;

pub use command::{Command, parse};
pub use session::{Flow, Session};
