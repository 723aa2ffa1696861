//! A process-wide memory budget for blocks kept decompressed: the Mühle
//! files' win/draw/loss cache and the Dame files' block cache each have one,
//! and every file keeps its blocks in a [`Kept`] against it.

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

/// The blocks of one file kept once read, while their budget allows; they
/// leave the budget's count with the file.
pub(crate) struct Kept<T: 'static> {
    budget: &'static MemoryBudget,
    blocks: u64,
    slots: OnceLock<Vec<OnceLock<Box<[T]>>>>,
}

impl<T> Kept<T> {
    /// Room for `blocks` blocks, none kept.
    pub(crate) fn new(budget: &'static MemoryBudget, blocks: u64) -> Kept<T> {
        Kept {
            budget,
            blocks,
            slots: OnceLock::new(),
        }
    }

    fn slot(&self, b: u64) -> &OnceLock<Box<[T]>> {
        &self
            .slots
            .get_or_init(|| (0..self.blocks).map(|_| OnceLock::new()).collect())[b as usize]
    }

    /// Block `b` if it is kept.
    pub(crate) fn get(&self, b: u64) -> Option<&[T]> {
        self.slot(b).get().map(|d| &d[..])
    }

    /// Keep block `b` if the budget has room: `Ok` with the kept block,
    /// `Err(data)` when there is no room.
    pub(crate) fn keep(&self, b: u64, data: Box<[T]>) -> Result<&[T], Box<[T]>> {
        let slot = self.slot(b);
        let bytes = std::mem::size_of_val(&data[..]);
        self.budget.keep(slot, data, bytes)?;
        Ok(slot.get().expect("just kept"))
    }

    /// Whether `bytes` more would fit in the budget.
    pub(crate) fn has_room(&self, bytes: usize) -> bool {
        self.budget.has_room(bytes)
    }
}

impl<T> Drop for Kept<T> {
    fn drop(&mut self) {
        if let Some(slots) = self.slots.get() {
            let bytes: usize = slots
                .iter()
                .filter_map(|s| s.get())
                .map(|d| std::mem::size_of_val(&d[..]))
                .sum();
            self.budget.release(bytes);
        }
    }
}
