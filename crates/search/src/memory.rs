//! Memory hints for large tables read at random: a pattern database builder's per-placement
//! table (gigabytes for the 7-8 and 6-6-6-6 partitions), a proof table of hundreds of MiB.
//! With 4 KiB pages nearly every access also misses the TLB. Transparent huge pages (2 MiB)
//! cut those misses by orders of magnitude; on systems where they are enabled only on request
//! (`madvise` mode), [`advise_huge_pages`] makes the request.
#![allow(unsafe_code)]

/// Advises the kernel to back the whole 2 MiB pages inside `table` with huge pages. Only
/// advice: it never changes the contents, and it is ignored where unsupported. Give it a
/// table's memory before it is first written (a `Vec`'s spare capacity), so that the pages
/// are huge from their first touch.
pub fn advise_huge_pages<T>(table: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = table.as_ptr() as usize;
        let end = start + std::mem::size_of_val(table);
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: [first, last) lies inside the live allocation of `table`, and
            // MADV_HUGEPAGE only changes how the kernel backs those pages, not their contents
            // or validity; a failure is harmless and ignored.
            let _ = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = table;
}

/// Asks the processor to bring the cache line holding `item` into its caches, so that a later
/// read finds it there: the builder issues these for the children of the placements it will
/// expand next while it works on the current one. Only a hint: it never faults and changes
/// nothing.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that cannot fault or change memory, and `item` is a live
    // reference; SSE, which the instruction belongs to, is part of every x86-64 processor.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
