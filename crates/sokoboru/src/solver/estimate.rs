//! The estimates of a state's children: the matching, the walk to the next push, the
//! one-box game and the drift bound, cheapest first.

use std::cell::OnceCell;

use smallvec::SmallVec;

use super::key::Key;
use super::pushes::pushes;
use crate::bound::{Bound, Duals, Matching};
use crate::drift::Drift;
use crate::duo::Duo;
use crate::freeze::frozen_dead_after;
use crate::puzzle::Puzzle;
use crate::state::{Dir, State};

/// How the children of a state are estimated: the matching and the walk to the next push
/// always, the other bounds when given.
pub(crate) struct Estimator<'a> {
    /// The one-box, one-ball game's bound, if used.
    pub(crate) duo: Option<&'a Duo>,
    /// The player's drift bound, if used.
    pub(crate) drift: Option<Drift>,
    /// Whether to count the walk to a push that may lower the matching ([`progress_near`])
    /// rather than to any push.
    pub(crate) progress: bool,
    /// Whether the estimate handed on is the matching and the walk alone, the other bounds
    /// serving only to leave out children beyond the limit: a weighted search guided by the
    /// plain estimate, pruned by the strongest.
    pub(crate) plain_guide: bool,
}

impl Estimator<'_> {
    /// The matching and the walk alone, as the weighted searches estimate: they find their
    /// solutions sooner and cheaper without the other bounds (ledger row "weighted searches:
    /// plain estimates").
    pub(crate) fn plain() -> Estimator<'static> {
        Estimator {
            duo: None,
            drift: None,
            progress: false,
            plain_guide: false,
        }
    }

    /// The estimate of the start `state`: the largest of the matching and the other bounds
    /// in use (0 when the state is dead: the search finds that out itself).
    pub(crate) fn start(&self, bound: &Bound, state: &State) -> u32 {
        let matching = bound.estimate(state).unwrap_or_default();
        let duo = self.duo.and_then(|duo| duo.estimate(state));
        let drift = self.drift.as_ref().and_then(|drift| drift.estimate(state));
        matching.max(duo.unwrap_or(0)).max(drift.unwrap_or(0))
    }

    /// The live pushes from `state`, reached at cost `g`, with their costs and estimates.
    /// With a `limit`, a child whose `f` would exceed it is left out, and its estimate is cut
    /// short as soon as a cheap part of it shows that.
    pub(crate) fn children(
        &self,
        puzzle: &Puzzle,
        bound: &Bound,
        state: &State,
        g: u32,
        limit: Option<u32>,
    ) -> Children {
        let matching = bound.matching(state);
        // The drift bound's duals, found when a child first needs them: each child's drift
        // bound is read off them in O(n).
        let drift = self.drift.as_ref();
        let duals: OnceCell<Option<Duals>> = OnceCell::new();
        // One push changes one pair cost of a row or a column by at most one step of the
        // relaxed game, or fills a box whose pair cost was one, so the matching drops by at
        // most one.
        let floor = matching
            .as_ref()
            .and_then(|m| m.value(bound))
            .map_or(0, |h| h.saturating_sub(1));
        // A push costs at least one more than its walk, so longer walks need not be listed.
        let longest = limit.map(|limit| limit.saturating_sub(g + floor + 1));
        let mut listed = SmallVec::new();
        pushes(puzzle, state, longest, &mut listed);
        let estimated = listed.iter().filter_map(|&(key, cost)| {
            let child = key.state();
            let within = |h: u32| limit.is_none_or(|limit| g + cost + h <= limit);
            let estimate = match &matching {
                _ if child.empty == 0 => Some(0),
                Some(matching) if within(floor) => {
                    // The cheap parts first: the walk, then the one-box game.
                    let walk =
                        walk_to_push(puzzle, &child).filter(|walk| within(floor + walk.steps));
                    let duo = walk.and_then(|walk| match self.duo {
                        Some(duo) => Some((floor + walk.steps).max(duo.estimate(&child)?)),
                        None => Some(floor + walk.steps),
                    });
                    let duo = duo.filter(|&h| within(h)).and_then(|h| match drift {
                        Some(drift) => {
                            let duals = duals.get_or_init(|| drift.bound().duals(state));
                            let pushes =
                                duals.as_ref()?.lower_after(drift.bound(), state, &child)?;
                            Some(h.max(pushes.saturating_sub(drift.slack(child.player))))
                        }
                        None => Some(h),
                    });
                    duo.filter(|&h| within(h)).and_then(|h| {
                        let walk = walk?;
                        let after = matching.after(bound, state, &child);
                        let pushes = after.value(bound)?;
                        let plain = pushes + walk.steps;
                        let mut h = h.max(plain);
                        // One more move when no push that near may lower the matching; asked
                        // only when that would raise the estimate.
                        if self.progress
                            && h == plain
                            && !progress_near(puzzle, bound, &after, &child, walk)
                        {
                            h += 1;
                        }
                        Some(h)
                            .filter(|&h| within(h))
                            .map(|h| if self.plain_guide { plain } else { h })
                    })
                }
                _ => None,
            };
            // Last, as it rarely applies: frozen objects that can never be paired (a new dead
            // end can only involve the object just pushed).
            let estimate = estimate.filter(|_| !frozen_dead_after(puzzle, state, &child))?;
            Some((key, cost, estimate))
        });
        let mut children = Vec::with_capacity(listed.len());
        children.extend(estimated);
        children
    }
}

/// The children of a state as [`Estimator::children`] gives them: state, step cost, estimate.
pub(crate) type Children = Vec<(Key, u32, u32)>;

/// The fewest walking steps before the player can push anything (0 when it can push from where
/// it stands), with the cells that far, or `None` when it can never push again. The walk comes
/// before the next push, and the matching counts only pushes and slides, so the two add up to
/// a lower bound.
///
/// A cell is ready when an object next to it can be pushed away from it: a ball needs a cell
/// that is not a wall, a ball or a full box behind it (an empty box takes it in), an empty box
/// one that is not a wall or a box, a full box one that is not a wall, a box or a ball.
pub(crate) fn walk_to_push(puzzle: &Puzzle, state: &State) -> Option<Walk> {
    let free = puzzle.board() & !(puzzle.walls | state.empty | state.full | state.balls);
    let open = puzzle.board() & !puzzle.walls;
    let for_ball = open & !(state.balls | state.full);
    let for_empty = open & !(state.empty | state.full);
    let for_full = for_empty & !state.balls;
    let ready = Dir::ALL.into_iter().fold(0, |ready, dir| {
        let back = dir.opposite();
        let pushable = (state.balls & puzzle.shift(for_ball, back))
            | (state.empty & puzzle.shift(for_empty, back))
            | (state.full & puzzle.shift(for_full, back));
        ready | puzzle.shift(pushable, back)
    }) & free;
    let mut seen = 1u64 << state.player;
    let mut frontier = seen;
    let mut steps = 0;
    while frontier & ready == 0 {
        frontier = puzzle.spread(frontier) & free & !seen;
        if frontier == 0 {
            return None;
        }
        seen |= frontier;
        steps += 1;
    }
    Some(Walk {
        steps,
        nearest: frontier,
    })
}

/// The walk to the nearest push ([`walk_to_push`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Its length.
    pub(crate) steps: u32,
    /// The cells that far from the player.
    pub(crate) nearest: u64,
}

/// Whether some push from the cells of `walk` may lower `state`'s `matching`
/// ([`Matching::may_lower`]).
///
/// If none may, the moves before the next push that lowers the matching are at least one more
/// than the walk, and they add to the matching, which does not fall before it. If those moves
/// are all walks, the layout stands still and that push is one of this layout's, from a cell
/// farther than the nearest ones; otherwise some push comes first, after at least the walk,
/// and costs at least one more.
pub(crate) fn progress_near(
    puzzle: &Puzzle,
    bound: &Bound,
    matching: &Matching,
    state: &State,
    walk: Walk,
) -> bool {
    let objects = state.empty | state.full | state.balls;
    Dir::ALL.into_iter().any(|dir| {
        let mut from = walk.nearest & puzzle.shift(objects, dir.opposite());
        while from != 0 {
            let cell = from.trailing_zeros() as u8;
            from &= from - 1;
            let at = State {
                player: cell,
                ..*state
            };
            if at
                .step(puzzle, dir)
                .is_ok_and(|step| matching.may_lower(bound, state, &step.state))
            {
                return true;
            }
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::pushes::walk_distances;
    use crate::solver::testing::{listed, near_the_medium_starts};

    #[test]
    fn the_walk_to_the_next_push_agrees_with_the_rules() {
        let mut seen = [0usize; 3];
        for (puzzle, states) in near_the_medium_starts(3) {
            for state in &states {
                for (key, _) in listed(&puzzle, state, None) {
                    let child = key.state();
                    // The nearest cell the player can walk to and push from, by the rules.
                    let dist = walk_distances(&puzzle, &child);
                    let objects = child.empty | child.full | child.balls;
                    let by_rules = (0..puzzle.cells())
                        .filter(|&cell| dist[cell] != u8::MAX)
                        .filter(|&cell| {
                            let at = State {
                                player: cell as u8,
                                ..child
                            };
                            Dir::ALL.into_iter().any(|dir| {
                                puzzle
                                    .neighbour(cell, dir)
                                    .is_some_and(|n| objects & (1 << n) != 0)
                                    && at.step(&puzzle, dir).is_ok()
                            })
                        })
                        .map(|cell| u32::from(dist[cell]))
                        .min();
                    assert_eq!(
                        walk_to_push(&puzzle, &child).map(|walk| walk.steps),
                        by_rules
                    );
                    seen[by_rules.map_or(2, |d| usize::from(d > 0))] += 1;
                }
            }
        }
        assert!(
            seen[0] > 100 && seen[1] > 100,
            "at a push, walking, stuck: {seen:?}"
        );
    }

    /// A push that `may_lower` rules out never lowers the matching, and the walk to the next
    /// push that may lower it is the nearest such push by the rules (or one more than the
    /// walk to any push, whichever is less).
    #[test]
    fn the_walk_to_progress_agrees_with_the_rules() {
        let mut seen = [0usize; 3];
        for (puzzle, states) in near_the_medium_starts(3) {
            let bound = Bound::new(&puzzle);
            for state in &states {
                let matching = bound.estimate(state);
                let Some(duals) = bound.matching(state) else {
                    continue;
                };
                let dist = walk_distances(&puzzle, state);
                let mut nearest = None::<u32>;
                for cell in (0..puzzle.cells()).filter(|&cell| dist[cell] != u8::MAX) {
                    let at = State {
                        player: cell as u8,
                        ..*state
                    };
                    for dir in Dir::ALL {
                        let Ok(step) = at.step(&puzzle, dir) else {
                            continue;
                        };
                        if step.state.balls == at.balls
                            && step.state.empty == at.empty
                            && step.state.full == at.full
                        {
                            continue;
                        }
                        let lowers = duals.may_lower(&bound, state, &step.state);
                        if !lowers {
                            let after = bound.estimate(&step.state);
                            assert!(
                                after.is_none() || after >= matching,
                                "{}",
                                puzzle.render(&at)
                            );
                        }
                        let cost = u32::from(dist[cell]) + u32::from(!lowers);
                        nearest = Some(nearest.map_or(cost, |n| n.min(cost)));
                    }
                }
                let plain = walk_to_push(&puzzle, state);
                let walk = plain.map(|walk| {
                    walk.steps + u32::from(!progress_near(&puzzle, &bound, &duals, state, walk))
                });
                assert_eq!(walk, nearest, "{}", puzzle.render(state));
                let plain = plain.map(|walk| walk.steps);
                seen[match (walk, plain) {
                    (Some(w), Some(p)) if w > p => 1,
                    (Some(_), Some(_)) => 0,
                    _ => 2,
                }] += 1;
            }
        }
        assert!(
            seen[0] > 100 && seen[1] > 100,
            "at the walk, one more, stuck: {seen:?}"
        );
    }
}
