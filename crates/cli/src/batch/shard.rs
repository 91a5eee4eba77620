//! Shards: a deterministic partition of a batch's items.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Shard `index` of `count` (as `--shard K/N` names it, K from 1): the items `i` (from 0, in
/// the command's own order) with `i mod N = K - 1`. Dealing the items out in turn keeps
/// the shards the same size and mixes easy and hard items alike into each, and it depends on
/// nothing but the item's place, so every machine agrees on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Shard {
    /// K, from 1 to `count`.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole batch, as one shard.
    pub(crate) const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether item `item` (from 0) is this shard's.
    pub(crate) fn owns(self, item: u64) -> bool {
        item % self.count == self.index - 1
    }

    /// This shard's items of a batch of `total`, in order.
    pub(crate) fn items(self, total: u64) -> impl Iterator<Item = u64> + Send + 'static {
        let count = self.count;
        std::iter::successors(Some(self.index - 1), move |&i| i.checked_add(count))
            .take_while(move |&i| i < total)
    }

    /// How many of a batch of `total` items are this shard's.
    pub(crate) fn size(self, total: u64) -> u64 {
        if total < self.index {
            0
        } else {
            (total - self.index) / self.count + 1
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let shown: String = text.chars().take(40).collect();
        let wrong = || format!("expected K/N (shard K of N, K from 1 to N), found '{shown}'");
        let (k, n) = text.split_once('/').ok_or_else(wrong)?;
        let (Ok(index), Ok(count)) = (k.trim().parse::<u64>(), n.trim().parse::<u64>()) else {
            return Err(wrong());
        };
        if count == 0 {
            return Err(format!("{shown}: N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(format!("{shown}: K must be from 1 to N ({count})"));
        }
        Ok(Shard { index, count })
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_deal_the_items_out_in_turn() {
        let shard: Shard = "2/3".parse().unwrap();
        assert_eq!(shard.items(8).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(shard.size(8), 3);
        assert!(shard.owns(4) && !shard.owns(5));
        let last: Shard = "7/7".parse().unwrap();
        assert_eq!(last.items(5).count(), 0);
        assert_eq!(last.size(5), 0);
        // Every item is in exactly one shard.
        for n in 1..9u64 {
            let mut seen = [0; 20];
            for k in 1..=n {
                let shard = Shard { index: k, count: n };
                assert_eq!(shard.items(20).count() as u64, shard.size(20));
                for i in shard.items(20) {
                    seen[i as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&s| s == 1), "{n}");
        }
        let far = Shard {
            index: u64::MAX,
            count: u64::MAX,
        };
        // The last item of the largest batch, with no overflow past it.
        assert_eq!(far.items(u64::MAX).collect::<Vec<_>>(), [u64::MAX - 1]);
        assert_eq!(far.size(u64::MAX), 1);
    }

    #[test]
    fn bad_shards_are_named() {
        assert!(
            "0/3"
                .parse::<Shard>()
                .unwrap_err()
                .contains("K must be from 1")
        );
        assert!(
            "4/3"
                .parse::<Shard>()
                .unwrap_err()
                .contains("K must be from 1")
        );
        assert!("1/0".parse::<Shard>().unwrap_err().contains("at least 1"));
        assert!("3".parse::<Shard>().unwrap_err().contains("expected K/N"));
        assert!("a/b".parse::<Shard>().unwrap_err().contains("expected K/N"));
        assert_eq!("1/1".parse::<Shard>().unwrap(), Shard::WHOLE);
        assert_eq!(
            serde_json::to_string(&Shard { index: 3, count: 8 }).unwrap(),
            "\"3/8\""
        );
    }
}
