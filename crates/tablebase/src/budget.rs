//! A process-wide memory budget for blocks kept decompressed: the Mühle
//! files' win/draw/loss cache and the Dame files' block cache each have one.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes held against a limit, by every file that keeps blocks.
pub(crate) struct MemoryBudget {
    held: AtomicUsize,
    limit: AtomicUsize,
}

impl MemoryBudget {
    /// A budget of `limit` bytes, nothing held.
    pub(crate) const fn new(limit: usize) -> MemoryBudget {
        MemoryBudget {
            held: AtomicUsize::new(0),
            limit: AtomicUsize::new(limit),
        }
    }

    /// A new limit (what is held stays).
    pub(crate) fn set_limit(&self, bytes: usize) {
        self.limit.store(bytes, Ordering::Relaxed);
    }

    /// Bytes held now.
    pub(crate) fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// Whether `bytes` more would fit.
    pub(crate) fn has_room(&self, bytes: usize) -> bool {
        self.held() + bytes <= self.limit.load(Ordering::Relaxed)
    }

    /// Keep `data` (`bytes` of memory) in `slot` if the budget has room:
    /// `Ok` once the slot holds the block (put there by this call or, a
    /// moment earlier, by another thread), `Err(data)` when there is no
    /// room.
    pub(crate) fn keep<T>(
        &self,
        slot: &OnceLock<Box<[T]>>,
        data: Box<[T]>,
        bytes: usize,
    ) -> Result<(), Box<[T]>> {
        let limit = self.limit.load(Ordering::Relaxed);
        if self.held.fetch_add(bytes, Ordering::Relaxed) + bytes > limit {
            self.release(bytes);
            return Err(data);
        }
        if slot.set(data).is_err() {
            // Another thread kept it first.
            self.release(bytes);
        }
        Ok(())
    }

    /// Give back `bytes` (blocks dropped).
    pub(crate) fn release(&self, bytes: usize) {
        self.held.fetch_sub(bytes, Ordering::Relaxed);
    }
}
