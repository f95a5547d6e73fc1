//! The search allocates nothing per iteration once its buffers are warm (base game), nor do
//! the heuristic's look-ahead and rollouts, nor the expert (its network's forward pass
//! included), per decision: counted with a global allocator that tallies every allocation
//! made on the counting thread (the harness and the other tests allocate on their own threads,
//! at any moment).
use carcassonne::engine::rng::Rng;
use carcassonne::players::expert::{Expert, ExpertConfig};
use carcassonne::players::heuristic::{Heuristic, HeuristicConfig};
use carcassonne::players::mcts::{MctsConfig, Search};
use carcassonne::{Catalogue, Move, Phase, Rules, State};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;
thread_local! {
    // Const-initialised and without a destructor, so reading it never allocates.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALLOCS.with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations of `step(3)` on this thread once `step(1)` and `step(2)` have warmed its
/// buffers.
fn allocations_once_warm(mut step: impl FnMut(u64)) -> usize {
    step(1);
    step(2);
    let before = ALLOCS.with(Cell::get);
    step(3);
    ALLOCS.with(Cell::get) - before
}

/// A two-player base game played at random by `seed` for `turns` turns, its next tile drawn,
/// and its legal moves.
fn random_position(seed: u64, turns: u16) -> (State, Vec<Move>) {
    let mut s = State::new(Catalogue::builtin(), Rules::base(), 2, seed).unwrap();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(256);
    while s.turns < turns {
        if s.phase == Phase::Draw {
            s.draw_random(|_| {});
            continue;
        }
        s.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len())];
        s.play_unchecked(&m);
    }
    s.draw_random(|_| {});
    s.legal_moves(&mut moves);
    (s, moves)
}

#[test]
fn no_allocation_per_iteration_after_warm_up() {
    let (s, moves) = random_position(4, 30);
    let cfg = MctsConfig {
        playouts: 3000,
        ..MctsConfig::default()
    };
    let mut search = Search::new();
    let during = allocations_once_warm(|seed| {
        search.run(&s, &moves, &cfg, seed);
    });
    // A rare rollout may still grow the board's grid further than any before it.
    assert!(during <= 3, "{during} allocations in 3000 iterations");
}

#[test]
fn no_allocation_per_look_ahead_decision_after_warm_up() {
    let (s, moves) = random_position(5, 20);
    // A rare continuation may still grow the board's grid further than any before it.
    for (cfg, most) in [
        (HeuristicConfig::parse("depth=2").unwrap(), 0),
        (HeuristicConfig::parse("rollouts=8:top=4").unwrap(), 3),
    ] {
        let mut h = Heuristic::new();
        let during = allocations_once_warm(|seed| {
            h.choose(&cfg, &s, &moves, &mut Rng::new(seed));
        });
        assert!(
            during <= most,
            "{}: {during} allocations in a decision",
            cfg.text()
        );
    }
}

#[test]
fn no_allocation_per_expert_decision_after_warm_up() {
    let (s, moves) = random_position(6, 25);
    // The shipped base model carries a network: its forward pass runs for every move.
    // With `net_top`, only the linear part's best moves run it.
    for net_top in [0, 4] {
        let cfg = ExpertConfig {
            net_top,
            ..ExpertConfig::default()
        };
        assert!(cfg.weights.model_for(&s.rules).net.is_some());
        let mut e = Expert::new();
        let during = allocations_once_warm(|seed| {
            e.choose(&cfg, &s, &moves, &mut Rng::new(seed));
        });
        assert_eq!(
            during,
            0,
            "{during} allocations in a decision of {}",
            cfg.text()
        );
    }
}
