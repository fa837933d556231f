//! Connected components by union-find (path halving, the smaller root
//! kept): the islands of a step's rows ([`crate::cone_fixed_point`]), of an
//! event's candidates ([`crate::friction`]) and of sleeping bodies
//! ([`crate::sleep`]).

/// Sets of `0..n`, joined pairwise.
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` sets of one element each.
    pub fn new(n: usize) -> Self {
        UnionFind { parent: (0..n).collect() }
    }

    /// The representative of `i`'s set.
    pub fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Joins the sets of `a` and `b`.
    pub fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra.max(rb)] = ra.min(rb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_elements_share_a_root_and_others_do_not() {
        let mut u = UnionFind::new(6);
        u.join(4, 1);
        u.join(1, 3);
        u.join(5, 2);
        assert_eq!(u.root(4), u.root(3));
        assert_eq!(u.root(2), u.root(5));
        assert_ne!(u.root(3), u.root(5));
        assert_eq!(u.root(0), 0);
        // The smaller root is kept.
        assert_eq!(u.root(4), 1);
    }
}
