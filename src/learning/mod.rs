//! What a learning environment needs beyond the engine: every legal move numbered
//! (`action_space`), one player's view as planes and a vector (`observation`), batches of
//! games stepped in place (`vector_env`), what each legal action changes
//! (`action_features`), the self-play positions the learned evaluation is trained on
//! (`positions`), and the candidate moves of sampled decisions, each continued with common
//! random numbers, that it is fitted to rank (`decisions`).

pub mod action_features;
pub mod action_space;
pub mod decisions;
pub mod observation;
pub mod positions;
pub mod vector_env;
