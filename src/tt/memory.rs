//! The table's slot array: zeroed, aligned to 2 MiB and, on Linux, advised into huge pages.
//!
//! Probes land on random slots, so with 4 KiB pages nearly every one also misses the TLB. A
//! table backed by 2 MiB pages needs 512 times fewer translations. Linux set to transparent
//! huge pages "madvise" (a common default) grants them only to memory that asks, before it is
//! first touched; elsewhere the advice is skipped and the table works as before.

use std::alloc::{self, Layout};
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// One slot: `key ^ data` and `data` (see the table's module). All-zero bytes are an
/// empty slot.
pub(super) struct Slot {
    pub check: AtomicU64,
    pub data: AtomicU64,
}

/// Huge page size, and the smallest table aligned to it.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// A heap array of zeroed slots, freed on drop.
pub(super) struct Slots {
    ptr: NonNull<Slot>,
    len: usize,
    layout: Layout,
}

// SAFETY: the slots are atomics, shared by reference like a `Box<[Slot]>` would be.
unsafe impl Send for Slots {}
unsafe impl Sync for Slots {}

impl Slots {
    /// `len` empty slots (at least one), or `None` when the memory cannot be had.
    pub fn zeroed(len: usize) -> Option<Slots> {
        let len = len.max(1);
        let size = len.checked_mul(size_of::<Slot>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            align_of::<Slot>()
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<Slot>())?;
        if align == HUGE_PAGE {
            advise_huge_pages(raw, size);
        }
        // SAFETY: `raw` is valid for `size` bytes; zero bytes are a valid, empty `Slot`. Zeroing
        // after the advice is the first touch, so the pages come in huge where granted.
        unsafe { raw.write_bytes(0, size) };
        Some(Slots { ptr, len, layout })
    }
}

impl Deref for Slots {
    type Target = [Slot];

    fn deref(&self) -> &[Slot] {
        // SAFETY: `ptr` holds `len` initialized slots for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

/// Asks Linux to back `[addr, addr + len)` with transparent huge pages. Advice only: a kernel
/// that refuses leaves ordinary pages, so the result is ignored.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: *mut u8, len: usize) {
    use std::ffi::{c_int, c_void};
    /// `MADV_HUGEPAGE` from Linux's `<asm-generic/mman-common.h>`.
    const MADV_HUGEPAGE: c_int = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    // SAFETY: the range is one live allocation of ours, aligned to a page.
    let _ = unsafe { madvise(addr.cast(), len, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn slots_start_empty_and_hold_what_is_stored() {
        for len in [1, 3, HUGE_PAGE / size_of::<Slot>() + 1] {
            let slots = Slots::zeroed(len).unwrap();
            assert_eq!(slots.len(), len);
            assert!(slots.iter().all(
                |s| s.check.load(Ordering::Relaxed) == 0 && s.data.load(Ordering::Relaxed) == 0
            ));
            slots[len - 1].data.store(7, Ordering::Relaxed);
            assert_eq!(slots[len - 1].data.load(Ordering::Relaxed), 7);
        }
        assert_eq!(Slots::zeroed(0).unwrap().len(), 1);
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(Slots::zeroed(usize::MAX / 4).is_none());
    }
}
