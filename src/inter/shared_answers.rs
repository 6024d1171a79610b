//! Stage answers shared by stage oracles of one graph that cut it into layers differently (the
//! plan's and the equal-operator baseline's): an answer depends on the stage's ops, the graph,
//! the cluster and the oracle's options, not on where the layers around it are cut, so ranges
//! of the two cuts that hold the same ops (the whole model at least) are planned once.

use super::stage_cost::StageCostResult;
use super::submesh::SubmeshShape;
use std::collections::HashMap;
use std::sync::Mutex;

type Key = (Vec<usize>, SubmeshShape);

/// Options of stages by (op indices, submesh). Share one only between oracles of the same
/// graph, cluster and options.
#[derive(Debug, Default)]
pub struct SharedAnswers {
    answers: Mutex<HashMap<Key, Vec<StageCostResult>>>,
}

impl SharedAnswers {
    /// The options another oracle found for the stage of `ops` on `submesh`.
    pub(crate) fn get(&self, ops: &[usize], submesh: SubmeshShape) -> Option<Vec<StageCostResult>> {
        self.answers.lock().ok()?.get(&(ops.to_vec(), submesh)).cloned()
    }

    pub(crate) fn insert(&self, ops: &[usize], submesh: SubmeshShape, options: &[StageCostResult]) {
        if let Ok(mut answers) = self.answers.lock() {
            answers.entry((ops.to_vec(), submesh)).or_insert_with(|| options.to_vec());
        }
    }
}
