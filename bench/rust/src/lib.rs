//! C entry points for fastblake-bench (bench/rust_refs.hpp declares them).
use std::slice;

/// A rayon pool of `threads` threads, or null if it cannot be built.
#[no_mangle]
pub extern "C" fn fastblake_rust_pool_new(threads: usize) -> *mut rayon::ThreadPool {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => Box::into_raw(Box::new(pool)),
        Err(_) => std::ptr::null_mut(),
    }
}

/// # Safety
/// `pool` comes from fastblake_rust_pool_new and is freed once.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_pool_free(pool: *mut rayon::ThreadPool) {
    if !pool.is_null() {
        drop(Box::from_raw(pool));
    }
}

/// # Safety
/// `input` holds `len` bytes, `out` has room for 32.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_hash(input: *const u8, len: usize, out: *mut u8) {
    let digest = blake3::hash(slice::from_raw_parts(input, len));
    out.copy_from_nonoverlapping(digest.as_bytes().as_ptr(), 32);
}

/// Hasher::update_rayon on `pool`'s threads.
///
/// # Safety
/// As fastblake_rust_hash; `pool` is a live pool.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_hash_rayon(
    pool: *const rayon::ThreadPool,
    input: *const u8,
    len: usize,
    out: *mut u8,
) {
    let data = slice::from_raw_parts(input, len);
    let digest = (*pool).install(|| {
        let mut hasher = blake3::Hasher::new();
        hasher.update_rayon(data);
        hasher.finalize()
    });
    out.copy_from_nonoverlapping(digest.as_bytes().as_ptr(), 32);
}
