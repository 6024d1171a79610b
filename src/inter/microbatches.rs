//! The search over the number of microbatches B (`microbatches=auto`; the paper takes B from
//! the user, §7).
//!
//! With the global batch G fixed, B microbatches of G / B examples each give
//! T(B) = sum t_i(G / B) + (B - 1) x max t_i(G / B): more microbatches shrink the pipeline's
//! fill and drain, but pay the per-microbatch costs that do not shrink with the batch (gradient
//! all-reduces, the optimizer's update, collective and link latencies) more often, and the
//! activation memory per microbatch falls with G / B, which admits other plans. (The cost
//! model charges FLOPs at peak whatever their size, so the lower device efficiency of small
//! microbatches is not part of T(B).) T(B) has no structure the search could exploit safely,
//! so every candidate is planned (its own cost table at its microbatch size and its own DP)
//! and the least T(B) wins, the smaller B on ties.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use super::progress::Progress;
use serde::Serialize;

/// The candidates for B: the divisors of the global batch up to `max`.
pub fn microbatch_candidates(global_batch: usize, max: usize) -> Vec<usize> {
    (1..=global_batch.min(max)).filter(|b| global_batch.is_multiple_of(*b)).collect()
}

/// One B the search tried.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MicrobatchTrial {
    pub microbatches: usize,
    /// Modeled iteration time of the best plan with this B, seconds (`None`: no plan).
    pub iteration_time: Option<f64>,
    pub stages: Option<usize>,
    /// Why there is no plan.
    pub note: Option<String>,
}

/// The outcome of a plan for one B: its iteration time and stage count, and the caller's data.
pub struct Planned<T> {
    pub iteration_time: f64,
    pub stages: usize,
    pub value: T,
}

/// Plans every candidate with `plan` and returns the best B, its plan and every trial (in
/// candidate order). Fails when no candidate has a plan, with each candidate's reason.
pub fn search_microbatches<T>(
    candidates: &[usize],
    progress: bool,
    mut plan: impl FnMut(usize) -> Result<Planned<T>, String>,
) -> Result<(usize, T, Vec<MicrobatchTrial>), InterError> {
    if candidates.is_empty() {
        return Err(InterError::InvalidInput("no microbatch count to try".into()));
    }
    let progress = Progress::new(progress, "microbatches");
    let mut best: Option<(usize, f64, T)> = None;
    let mut trials = Vec::with_capacity(candidates.len());
    for (n, &b) in candidates.iter().enumerate() {
        progress.say(|| format!("B = {b} ({}/{})", n + 1, candidates.len()));
        match plan(b) {
            Ok(p) => {
                progress.say(|| format!("B = {b}: T = {:.6e} s with {} stages", p.iteration_time, p.stages));
                trials.push(MicrobatchTrial {
                    microbatches: b,
                    iteration_time: Some(p.iteration_time),
                    stages: Some(p.stages),
                    note: None,
                });
                if best.as_ref().is_none_or(|(_, t, _)| p.iteration_time < *t) {
                    best = Some((b, p.iteration_time, p.value));
                }
            }
            Err(note) => {
                progress.say(|| format!("B = {b}: no plan: {note}"));
                trials.push(MicrobatchTrial { microbatches: b, iteration_time: None, stages: None, note: Some(note) });
            }
        }
    }
    match best {
        Some((b, _, value)) => Ok((b, value, trials)),
        None => {
            let reasons: Vec<String> = trials
                .iter()
                .map(|t| format!("B = {}: {}", t.microbatches, t.note.as_deref().unwrap_or("?")))
                .collect();
            Err(InterError::InvalidInput(format!("no microbatch count has a plan ({})", reasons.join("; "))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_divide_the_batch_up_to_the_cap() {
        assert_eq!(microbatch_candidates(1024, 64), vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(microbatch_candidates(12, 100), vec![1, 2, 3, 4, 6, 12]);
        assert_eq!(microbatch_candidates(12, 5), vec![1, 2, 3, 4]);
        assert!(microbatch_candidates(0, 8).is_empty());
    }

    #[test]
    fn the_least_time_wins_and_ties_keep_the_smaller_b() {
        // T(B) = 8 / B + B (per-microbatch overhead 1 s): 1 -> 9, 2 -> 6, 4 -> 6, 8 -> 9.
        let (b, value, trials) = search_microbatches(&[1, 2, 4, 8], false, |b| {
            Ok(Planned { iteration_time: 8.0 / b as f64 + b as f64, stages: b, value: b * 10 })
        })
        .unwrap();
        assert_eq!((b, value), (2, 20));
        assert_eq!(trials.len(), 4);
        assert_eq!(trials[3].iteration_time, Some(9.0));
        // Infeasible candidates are reported, not fatal, unless all are.
        let (b, _, trials) = search_microbatches(&[1, 2, 4], false, |b| {
            if b < 4 {
                Err(format!("B = {b} does not fit"))
            } else {
                Ok(Planned { iteration_time: 1.0, stages: 1, value: () })
            }
        })
        .unwrap();
        assert_eq!(b, 4);
        assert_eq!(trials[0].note.as_deref(), Some("B = 1 does not fit"));
        let err = search_microbatches(&[1, 2], false, |_| Err::<Planned<()>, _>("no".to_string())).unwrap_err();
        assert!(err.to_string().contains("B = 2: no"), "{err}");
        assert!(search_microbatches(&[], false, |_| Ok(Planned { iteration_time: 1.0, stages: 1, value: () })).is_err());
    }
}
