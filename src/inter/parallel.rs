//! Work spread over scoped threads: the table builder's queries, a query's logical meshes.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` of every item, in the items' order, computed by up to `threads` scoped threads that
/// take the next item as they finish one.
pub(crate) fn map_in_threads<T: Copy + Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().map(|&item| f(item)).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(&item) = items.get(n) else { break };
                let r = f(item);
                if let Ok(mut done) = done.lock() {
                    done.push((n, r));
                }
            });
        }
    });
    // A worker that panicked has already re-raised its panic at the end of the scope.
    let mut done = done.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    done.sort_by_key(|(n, _)| *n);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::map_in_threads;

    #[test]
    fn results_keep_the_items_order_whatever_the_threads() {
        let items: Vec<u64> = (0..40).collect();
        let expected: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [0, 1, 2, 3, 8, 64] {
            assert_eq!(map_in_threads(&items, threads, |x| x * x), expected, "{threads} threads");
        }
        assert!(map_in_threads(&[] as &[u64], 4, |x| x).is_empty());
    }
}
