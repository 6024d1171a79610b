//! Tree moves: grow an induced tree (every added node has exactly one edge into the tree) and
//! re-choose all its nodes at once by dynamic programming, the rest of the assignment fixed.
//! Exact for the tree; memory enters only through optional per-strategy penalties.

use super::lns::Rng;
use super::search::Search;

/// Scratch space reused across moves.
pub struct TreeScratch {
    /// Edges from the node into the tree (`u32::MAX` once the node is in the tree).
    count: Vec<u32>,
    queued: Vec<bool>,
    /// Position in the tree's order (`u32::MAX` outside).
    pos: Vec<u32>,
}

impl TreeScratch {
    pub fn new(n: usize) -> TreeScratch {
        TreeScratch { count: vec![0; n], queued: vec![false; n], pos: vec![u32::MAX; n] }
    }
}

const IN_TREE: u32 = u32::MAX;

/// What a tree move changed.
#[derive(Debug, Clone, Default)]
pub struct Moved {
    /// (node, previous strategy) of every node that changed (empty: no better assignment).
    pub undo: Vec<(usize, usize)>,
}

/// Grows a tree of at most `max_nodes` nodes from `seed` and applies the best assignment of
/// its nodes.
pub fn tree_move(
    s: &mut Search,
    seed: usize,
    max_nodes: usize,
    penalty: Option<&[Vec<f64>]>,
    rng: &mut Rng,
    sc: &mut TreeScratch,
) -> Moved {
    // Grow: order[k] = node, parent_of[k] = (index in order of the parent, incidence index).
    let mut order = vec![seed];
    let mut parent_of: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
    sc.pos[seed] = 0;
    sc.count[seed] = IN_TREE;
    let mut touched = vec![seed];
    let mut frontier: Vec<usize> = Vec::new();
    let mut head = 0;
    let enqueue = |x: usize, sc: &mut TreeScratch, frontier: &mut Vec<usize>, touched: &mut Vec<usize>| {
        if sc.count[x] != IN_TREE {
            if sc.count[x] == 0 && !sc.queued[x] {
                touched.push(x);
            }
            sc.count[x] += 1;
            if !sc.queued[x] {
                sc.queued[x] = true;
                frontier.push(x);
            }
        }
    };
    {
        let mut nb: Vec<usize> = s.adj[seed].iter().map(|a| a.other).collect();
        shuffle(&mut nb, rng);
        for x in nb {
            enqueue(x, sc, &mut frontier, &mut touched);
        }
    }
    while head < frontier.len() && order.len() < max_nodes {
        let w = frontier[head];
        head += 1;
        if sc.count[w] != 1 {
            continue;
        }
        // Its one edge into the tree.
        let Some(ai) = s.adj[w].iter().position(|a| sc.count[a.other] == IN_TREE) else { continue };
        let p = sc.pos[s.adj[w][ai].other] as usize;
        sc.count[w] = IN_TREE;
        sc.pos[w] = order.len() as u32;
        order.push(w);
        parent_of.push((p, ai));
        let mut nb: Vec<usize> = s.adj[w].iter().map(|a| a.other).filter(|&x| x != s.adj[w][ai].other).collect();
        shuffle(&mut nb, rng);
        for x in nb {
            enqueue(x, sc, &mut frontier, &mut touched);
        }
    }
    for &x in &touched {
        sc.count[x] = 0;
        sc.queued[x] = false;
    }
    let reset = |sc: &mut TreeScratch, order: &[usize]| {
        for &x in order {
            sc.count[x] = 0;
            sc.pos[x] = u32::MAX;
        }
    };
    if order.len() < 2 {
        reset(sc, &order);
        return Moved::default();
    }

    // Unary costs: own cost, penalty, edges to nodes outside the tree.
    let k = order.len();
    let mut f: Vec<Vec<f64>> = Vec::with_capacity(k);
    let mut current = 0.0;
    for &v in &order {
        let mut u: Vec<f64> = s.m.costs[v].clone();
        if let Some(p) = penalty {
            for (x, q) in u.iter_mut().zip(&p[v]) {
                *x += q;
            }
        }
        for a in &s.adj[v] {
            // The tree is induced: every edge between two of its nodes is a tree edge.
            if sc.pos[a.other] != u32::MAX {
                continue;
            }
            let t = s.choice[a.other];
            for (st, x) in u.iter_mut().enumerate() {
                *x += s.entry(v, a, st, t);
            }
        }
        current += u[s.choice[v]];
        f.push(u);
    }
    // Tree edges' current cost.
    for i in 1..k {
        let (p, ai) = parent_of[i];
        let v = order[i];
        let a = s.adj[v][ai];
        current += s.entry(v, &a, s.choice[v], s.choice[order[p]]);
    }
    // Bottom-up: best[i][sp] = best strategy of node i when its parent takes sp.
    let mut best: Vec<Vec<u32>> = vec![Vec::new(); k];
    for i in (1..k).rev() {
        let (p, ai) = parent_of[i];
        let v = order[i];
        let a = s.adj[v][ai];
        let np = s.m.costs[order[p]].len();
        let mut add = vec![f64::INFINITY; np];
        let mut arg = vec![0u32; np];
        for sp in 0..np {
            for (sv, &fv) in f[i].iter().enumerate() {
                let c = fv + s.entry(v, &a, sv, sp);
                if c < add[sp] {
                    add[sp] = c;
                    arg[sp] = sv as u32;
                }
            }
        }
        for (x, y) in f[p].iter_mut().zip(&add) {
            *x += y;
        }
        best[i] = arg;
    }
    reset(sc, &order);
    let mut root = 0;
    for (st, &x) in f[0].iter().enumerate() {
        if x < f[0][root] {
            root = st;
        }
    }
    let value = f[0][root];
    let improves = value < current - 1e-9 * current.abs().max(1.0);
    if !improves {
        return Moved::default();
    }
    let mut pick = vec![0usize; k];
    pick[0] = root;
    for i in 1..k {
        pick[i] = best[i][pick[parent_of[i].0]] as usize;
    }
    let mut undo = Vec::new();
    for (i, &v) in order.iter().enumerate() {
        if s.choice[v] != pick[i] {
            undo.push((v, s.choice[v]));
            s.set(v, pick[i]);
        }
    }
    Moved { undo }
}

fn shuffle(v: &mut [usize], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}
