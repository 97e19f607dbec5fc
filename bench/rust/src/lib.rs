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

/// blake2b_simd's BLAKE2b-512 (`bp` false) or BLAKE2bp (`bp` true).
///
/// # Safety
/// `input` holds `len` bytes, `out` has room for 64.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_blake2b(input: *const u8, len: usize, bp: bool, out: *mut u8) {
    let data = slice::from_raw_parts(input, len);
    let hash = if bp {
        blake2b_simd::blake2bp::blake2bp(data)
    } else {
        blake2b_simd::blake2b(data)
    };
    out.copy_from_nonoverlapping(hash.as_bytes().as_ptr(), 64);
}

/// blake2s_simd's BLAKE2s-256 (`sp` false) or BLAKE2sp (`sp` true).
///
/// # Safety
/// `input` holds `len` bytes, `out` has room for 32.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_blake2s(input: *const u8, len: usize, sp: bool, out: *mut u8) {
    let data = slice::from_raw_parts(input, len);
    let hash = if sp {
        blake2s_simd::blake2sp::blake2sp(data)
    } else {
        blake2s_simd::blake2s(data)
    };
    out.copy_from_nonoverlapping(hash.as_bytes().as_ptr(), 32);
}

/// blake2b_simd's hash_many over `count` inputs of `len` bytes each, back to back at `input`;
/// the 64-byte hashes go back to back to `out`.
///
/// # Safety
/// `input` holds count * len bytes, `out` has room for count * 64.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_blake2b_many(input: *const u8, len: usize, count: usize, out: *mut u8) {
    let data = slice::from_raw_parts(input, len * count);
    let params = blake2b_simd::Params::new();
    let mut jobs: Vec<_> = data
        .chunks_exact(len.max(1))
        .take(count)
        .map(|chunk| blake2b_simd::many::HashManyJob::new(&params, &chunk[..len]))
        .collect();
    blake2b_simd::many::hash_many(jobs.iter_mut());
    for (i, job) in jobs.iter().enumerate() {
        out.add(64 * i).copy_from_nonoverlapping(job.to_hash().as_bytes().as_ptr(), 64);
    }
}

/// blake2s_simd's hash_many, as fastblake_rust_blake2b_many with 32-byte hashes.
///
/// # Safety
/// `input` holds count * len bytes, `out` has room for count * 32.
#[no_mangle]
pub unsafe extern "C" fn fastblake_rust_blake2s_many(input: *const u8, len: usize, count: usize, out: *mut u8) {
    let data = slice::from_raw_parts(input, len * count);
    let params = blake2s_simd::Params::new();
    let mut jobs: Vec<_> = data
        .chunks_exact(len.max(1))
        .take(count)
        .map(|chunk| blake2s_simd::many::HashManyJob::new(&params, &chunk[..len]))
        .collect();
    blake2s_simd::many::hash_many(jobs.iter_mut());
    for (i, job) in jobs.iter().enumerate() {
        out.add(32 * i).copy_from_nonoverlapping(job.to_hash().as_bytes().as_ptr(), 32);
    }
}
