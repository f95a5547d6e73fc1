//! What a learning environment needs beyond the engine: every legal move numbered
//! (`action_space`), one player's view as planes and a vector (`observation`), batches of
//! games stepped in place (`vector_env`), what each legal action changes
//! (`action_features`), and the self-play positions the learned evaluation is trained on
//! (`positions`).

pub mod action_features;
pub mod action_space;
pub mod observation;
pub mod positions;
pub mod vector_env;
