//! The win rates other solvers publish for the standard levels, so that a benchmark can show
//! where ply stands beside them: MineSweeperProb's README (its strongest setting, D256, with
//! the first click in a corner under the safe rule and at its 1-based [3,3] or [4,4] under the
//! zero rule) and JSMinesweeper's (David Hill) published expert figures.

use super::rules::{FirstClick, Level, Rules, default_start};

/// A win rate another solver published.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedRate {
    /// The solver and its setting.
    pub solver: &'static str,
    /// The share of games won, from 0 to 1.
    pub rate: f64,
}

const PROB: &str = "MineSweeperProb D256";
const JS: &str = "JSMinesweeper";

/// The figures per level and rule, as published.
static TABLE: [(Level, FirstClick, &[PublishedRate]); 6] = [
    (
        Level::Beginner,
        FirstClick::Safe,
        &[PublishedRate {
            solver: PROB,
            rate: 0.9169,
        }],
    ),
    (
        Level::Beginner,
        FirstClick::Zero,
        &[PublishedRate {
            solver: PROB,
            rate: 0.9717,
        }],
    ),
    (
        Level::Intermediate,
        FirstClick::Safe,
        &[PublishedRate {
            solver: PROB,
            rate: 0.7823,
        }],
    ),
    (
        Level::Intermediate,
        FirstClick::Zero,
        &[PublishedRate {
            solver: PROB,
            rate: 0.8908,
        }],
    ),
    (
        Level::Expert,
        FirstClick::Safe,
        &[
            PublishedRate {
                solver: PROB,
                rate: 0.4005,
            },
            PublishedRate {
                solver: JS,
                rate: 0.415,
            },
        ],
    ),
    (
        Level::Expert,
        FirstClick::Zero,
        &[
            PublishedRate {
                solver: PROB,
                rate: 0.5345,
            },
            PublishedRate {
                solver: JS,
                rate: 0.543,
            },
        ],
    ),
];

/// The published win rates for `rules`: a standard level with its rule's default first
/// click ([`default_start`]), the setting those figures were measured with; none for other
/// boards or first clicks.
#[must_use]
pub fn published_rates(rules: &Rules) -> &'static [PublishedRate] {
    let Some(level) = rules.known_level() else {
        return &[];
    };
    if rules.start != default_start(rules.width, rules.height, rules.first_click) {
        return &[];
    }
    TABLE
        .iter()
        .find(|(l, rule, _)| *l == level && *rule == rules.first_click)
        .map_or(&[], |(_, _, rates)| rates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_at_their_default_start_have_figures_and_others_none() {
        for level in Level::ALL {
            for rule in FirstClick::ALL {
                let rules = Rules::level(level, rule);
                let rates = published_rates(&rules);
                assert!(!rates.is_empty(), "{level} {rule}");
                assert!(rates.iter().all(|r| r.rate > 0.3 && r.rate < 1.0));
                let moved = rules.with_start(1, 1).unwrap();
                assert!(published_rates(&moved).is_empty(), "{level} {rule}");
            }
        }
        let custom = Rules::new(10, 10, 10, FirstClick::Safe).unwrap();
        assert!(published_rates(&custom).is_empty());
    }
}
