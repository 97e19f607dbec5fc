/* fastblake's C interface: BLAKE3 and BLAKE2 for C and for every language that reaches native
 * code through C.
 *
 * Plain C11 (and C++). Every name starts with fastblake_ or FASTBLAKE_. No function exits,
 * aborts, prints or lets an exception through: failures are return values, errno-style (0 for
 * success, a positive errno value such as EINVAL or ENOENT, or one of the negative
 * FASTBLAKE_E* codes below). Functions are thread-safe in the usual sense: distinct objects may
 * be used from distinct threads at once.
 *
 * Hash states are opaque but have a fixed size, so that they can live on the stack or inside
 * your own structures without an allocation; copy one with memcpy (or assignment) to fork a
 * hash. They hold no pointers and need no cleanup.
 *
 * Link with -lfastblake (pkg-config fastblake); the library is C++ inside, so a static link
 * also needs the C++ runtime and threads, which pkg-config --static lists. */
#ifndef FASTBLAKE_FASTBLAKE_H
#define FASTBLAKE_FASTBLAKE_H

#include <stddef.h>
#include <stdint.h>

#include <fastblake/config.hpp>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Library ---- */

/** The library's version, "MAJOR.MINOR.PATCH". The shared library's SONAME changes with MAJOR. */
FASTBLAKE_API const char* fastblake_version(void);

/** The instruction-set backend in use: "portable", "sse2", "sse41", "avx2", "avx512", "neon",
 * "vsx", "zvector", "rvv" or "simd128" (see <fastblake/backend.hpp>; FASTBLAKE_BACKEND in the
 * environment forces one). */
FASTBLAKE_API const char* fastblake_active_backend(void);

/** The backends this build can run on this CPU, best first: writes up to `capacity` names
 * (static strings) to `names` and returns how many there are. */
FASTBLAKE_API size_t fastblake_available_backends(const char** names, size_t capacity);
/** Switches to the backend `name` (for tests and measurement). Returns 0, or EINVAL for a name
 * that is unknown or that this CPU cannot run. */
FASTBLAKE_API int fastblake_use_backend(const char* name);
/** Why FASTBLAKE_BACKEND in the environment was refused, or "" (a static string). */
FASTBLAKE_API const char* fastblake_backend_override_error(void);
/** The BLAKE2 kernels in use ("portable" under the sse2 backend, else the backend's name). */
FASTBLAKE_API const char* fastblake_active_blake2_kernels(void);
/** The active backend's schedule variant where it has several ("rows512" or "pairs256" under
 * avx512), else "": a static string. Chosen per core at the first hash (FASTBLAKE_VARIANT in
 * the environment forces one; see fastblake::active_variant in <fastblake/backend.hpp>). */
FASTBLAKE_API const char* fastblake_active_variant(void);
/** The active backend's variants: writes up to `capacity` names (static strings) to `names`
 * and returns how many there are (0 where it has one). */
FASTBLAKE_API size_t fastblake_available_variants(const char** names, size_t capacity);
/** Switches the active backend to its variant `name`. Returns 0, or EINVAL where it has none
 * of that name. */
FASTBLAKE_API int fastblake_use_variant(const char* name);
/** How the variant was chosen and why FASTBLAKE_VARIANT was refused, if it was, in one line (as
 * variant_choice() and variant_override_error(), joined by "; "): writes at most `capacity`
 * bytes with a terminating NUL to `text` where capacity > 0, and returns the whole line's
 * length, as snprintf does. */
FASTBLAKE_API size_t fastblake_variant_choice(char* text, size_t capacity);

/* ---- Threads ---- */

/** The threads of the default pool, which the _parallel functions and large inputs use:
 * FASTBLAKE_THREADS from the environment (1 to 1024), else the CPU's hardware threads. */
FASTBLAKE_API size_t fastblake_default_threads(void);

/** A pool of worker threads of one's own, to bound or choose the threads a call uses. */
typedef struct fastblake_thread_pool fastblake_thread_pool;
/** A pool of `threads` threads (the caller counts as one; 0: fastblake_default_threads()).
 * Returns NULL, with errno set (EINVAL above 4096, EAGAIN or ENOMEM), when it cannot be
 * made. */
FASTBLAKE_API fastblake_thread_pool* fastblake_thread_pool_new(size_t threads);
/** Stops and joins the pool's threads; no call may still be using it. NULL does nothing. */
FASTBLAKE_API void fastblake_thread_pool_free(fastblake_thread_pool* pool);
FASTBLAKE_API size_t fastblake_thread_pool_size(const fastblake_thread_pool* pool);

/** Library-specific failures, beside errno values. */
enum {
  /** A file shrank while it was being hashed: its hash would be wrong. */
  FASTBLAKE_ETRUNCATED = -1,
  /** Never returned now that BLAKE3 output goes on past byte 2^64 - 1; kept for code that
   * names it. */
  FASTBLAKE_EOUTPUT_RANGE = -2,
  /** A node of a Bao encoding or slice (or a chunk of an outboard's data) does not hash to what
   * its parent, or the root hash, says. */
  FASTBLAKE_EBAO_MISMATCH = -3,
  /** A Bao encoding, slice, outboard or its data ends before a node it needs. */
  FASTBLAKE_EBAO_TRUNCATED = -4
};

/** A short English description of a status returned here (0, an errno value or a
 * FASTBLAKE_E* code). The string is static. */
FASTBLAKE_API const char* fastblake_strerror(int status);

/* ---- BLAKE3 ---- */

#define FASTBLAKE_BLAKE3_OUT_LEN 32
#define FASTBLAKE_BLAKE3_KEY_LEN 32
#define FASTBLAKE_BLAKE3_BLOCK_LEN 64
#define FASTBLAKE_BLAKE3_CHUNK_LEN 1024

/** The 32-byte hash of input_len bytes at input (which may be NULL when input_len is 0).
 * Large inputs are hashed on the library's default thread pool. */
FASTBLAKE_API void fastblake_blake3_hash(const void* input, size_t input_len,
                                         uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]);

/** out_len bytes of the extendable output of input, from position 0 (the first 32 are
 * fastblake_blake3_hash's). */
FASTBLAKE_API void fastblake_blake3_hash_xof(const void* input, size_t input_len, uint8_t* out,
                                             size_t out_len);

/** The keyed hash (a MAC or PRF) of input with a 32-byte key. */
FASTBLAKE_API void fastblake_blake3_keyed_hash(const uint8_t key[FASTBLAKE_BLAKE3_KEY_LEN],
                                               const void* input, size_t input_len,
                                               uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]);

/** Key derivation: out_len bytes of key derived from `material` in `context`, a NUL-terminated
 * string that should be hard-coded, globally unique and application-specific. */
FASTBLAKE_API void fastblake_blake3_derive_key(const char* context, const void* material,
                                               size_t material_len, uint8_t* out, size_t out_len);

/** A BLAKE3 hash in progress: plain, keyed or key derivation. 8-byte aligned. */
typedef struct fastblake_blake3_hasher {
  uint64_t opaque[256];
} fastblake_blake3_hasher;

FASTBLAKE_API void fastblake_blake3_hasher_init(fastblake_blake3_hasher* self);
FASTBLAKE_API void fastblake_blake3_hasher_init_keyed(fastblake_blake3_hasher* self,
                                                      const uint8_t key[FASTBLAKE_BLAKE3_KEY_LEN]);
/** Key derivation with a NUL-terminated context; the key material goes through update. */
FASTBLAKE_API void fastblake_blake3_hasher_init_derive_key(fastblake_blake3_hasher* self,
                                                           const char* context);
/** As fastblake_blake3_hasher_init_derive_key, with a context of context_len bytes (NUL bytes
 * included). */
FASTBLAKE_API void fastblake_blake3_hasher_init_derive_key_raw(fastblake_blake3_hasher* self,
                                                               const void* context,
                                                               size_t context_len);

/** Absorbs input_len bytes. */
FASTBLAKE_API void fastblake_blake3_hasher_update(fastblake_blake3_hasher* self, const void* input,
                                                  size_t input_len);
/** As fastblake_blake3_hasher_update, on the default thread pool's threads for large inputs
 * (worth it from about 128 KiB a call). The result is the same. */
FASTBLAKE_API void fastblake_blake3_hasher_update_parallel(fastblake_blake3_hasher* self,
                                                           const void* input, size_t input_len);

/** Writes out_len bytes of output (the first 32 are the hash) of everything absorbed so far.
 * The state is left alone: updates may continue. */
FASTBLAKE_API void fastblake_blake3_hasher_finalize(const fastblake_blake3_hasher* self,
                                                    uint8_t* out, size_t out_len);
/** As fastblake_blake3_hasher_finalize, from output position `seek`; past byte 2^64 - 1 the
 * output goes on as the official C's does. Returns 0. */
FASTBLAKE_API int fastblake_blake3_hasher_finalize_seek(const fastblake_blake3_hasher* self,
                                                        uint64_t seek, uint8_t* out,
                                                        size_t out_len);

/** As fastblake_blake3_hasher_update_parallel, on `pool`'s threads (NULL: the default pool). */
FASTBLAKE_API void fastblake_blake3_hasher_update_pool(fastblake_blake3_hasher* self,
                                                       fastblake_thread_pool* pool,
                                                       const void* input, size_t input_len);

/** Back to the state right after init, in the same mode. */
FASTBLAKE_API void fastblake_blake3_hasher_reset(fastblake_blake3_hasher* self);

/** Bytes absorbed since init or reset. */
FASTBLAKE_API uint64_t fastblake_blake3_hasher_count(const fastblake_blake3_hasher* self);

/** Hashes `count` independent inputs, input i being lengths[i] bytes at inputs[i]: writes
 * the 32-byte hash of input i at out + 32 * i, keyed with the 32-byte `key` unless it is NULL.
 * Small inputs are hashed side by side in the SIMD lanes. Returns 0, or ENOMEM (nothing
 * written). */
FASTBLAKE_API int fastblake_blake3_hash_many(const void* const* inputs, const size_t* lengths,
                                             size_t count, const uint8_t* key, uint8_t* out);

/* ---- BLAKE3's subtree API (blake3::hazmat in <fastblake/blake3.hpp>) ----
 * Hash pieces of one input anywhere (threads, processes, machines), then merge their chaining
 * values into the hash of the whole. Read the C++ header's notes first: misuse gives chaining
 * values that merge into a wrong hash. */

/** Declares that `self`, with nothing absorbed yet, hashes the subtree starting at byte
 * `offset` of a larger input. Returns 0, or EINVAL if input was absorbed already or offset is
 * not a multiple of FASTBLAKE_BLAKE3_CHUNK_LEN. Its updates then fail past the subtree's most
 * (fastblake_blake3_max_subtree_len), absorbing nothing, and its finalize functions write
 * nothing: use fastblake_blake3_hasher_finalize_non_root. */
FASTBLAKE_API int fastblake_blake3_hasher_set_input_offset(fastblake_blake3_hasher* self,
                                                           uint64_t offset);
/** As fastblake_blake3_hasher_update for a subtree hasher: returns 0, or EINVAL (nothing
 * absorbed) when the input would make the subtree longer than its offset allows. */
FASTBLAKE_API int fastblake_blake3_hasher_update_subtree(fastblake_blake3_hasher* self,
                                                         const void* input, size_t input_len);
/** The 32-byte chaining value of the subtree absorbed. Returns 0, or EINVAL for an empty
 * subtree (never valid). */
FASTBLAKE_API int fastblake_blake3_hasher_finalize_non_root(const fastblake_blake3_hasher* self,
                                                            uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]);
/** The chaining value of the parent of two sibling subtrees, in the mode (plain, keyed or key
 * derivation) of `mode`, any hasher initialised as the subtrees' hashers were. */
FASTBLAKE_API void fastblake_blake3_merge_subtrees_non_root(
    const fastblake_blake3_hasher* mode, const uint8_t left[FASTBLAKE_BLAKE3_OUT_LEN],
    const uint8_t right[FASTBLAKE_BLAKE3_OUT_LEN], uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]);
/** The output of the whole input from the root's two children: out_len bytes from position
 * `seek` (the hash is 32 from 0). */
FASTBLAKE_API void fastblake_blake3_merge_subtrees_root(
    const fastblake_blake3_hasher* mode, const uint8_t left[FASTBLAKE_BLAKE3_OUT_LEN],
    const uint8_t right[FASTBLAKE_BLAKE3_OUT_LEN], uint64_t seek, uint8_t* out, size_t out_len);
/** The bytes of the left child of a tree of input_len bytes; 0 when input_len is a chunk or
 * less (a single chunk has no children). */
FASTBLAKE_API uint64_t fastblake_blake3_left_subtree_len(uint64_t input_len);
/** The most bytes a subtree starting at `offset` may hold: UINT64_MAX for offset 0 (no
 * limit), 0 for an offset that is not a multiple of FASTBLAKE_BLAKE3_CHUNK_LEN. */
FASTBLAKE_API uint64_t fastblake_blake3_max_subtree_len(uint64_t offset);

/* ---- Files (POSIX) ---- */

/** How files are read, for the `strategy` arguments below (which are ints: the size of an enum
 * is the compiler's choice, and any value may arrive from another language).
 * FASTBLAKE_FILE_AUTOMATIC maps large regular files and hashes them on the thread pool (and,
 * where the program links fastblake's CUDA library, may use the GPU); the others as
 * <fastblake/file.hpp> describes. */
typedef enum fastblake_file_strategy {
  FASTBLAKE_FILE_AUTOMATIC = 0,
  FASTBLAKE_FILE_READ = 1,
  FASTBLAKE_FILE_MMAP = 2,
  FASTBLAKE_FILE_MMAP_PARALLEL = 3,
  FASTBLAKE_FILE_STREAM = 4
} fastblake_file_strategy;

/** Absorbs the contents of the file at `path`. Returns 0; or an errno value (ENOENT, EACCES,
 * EISDIR, EIO, ...), FASTBLAKE_ETRUNCATED, or EINVAL for an unknown strategy; on failure the
 * hasher is left as it was. */
FASTBLAKE_API int fastblake_blake3_hasher_update_file(fastblake_blake3_hasher* self,
                                                      const char* path, int strategy);
/** As fastblake_blake3_hasher_update_file, from the open descriptor fd's current offset. The
 * descriptor is not closed. */
FASTBLAKE_API int fastblake_blake3_hasher_update_fd(fastblake_blake3_hasher* self, int fd,
                                                    int strategy);
/** The 32-byte hash of the file at `path`; returns as fastblake_blake3_hasher_update_file. */
FASTBLAKE_API int fastblake_blake3_hash_file(const char* path,
                                             uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]);

/* ---- BLAKE2 ---- */

/** The `algorithm` arguments below (ints, as the file strategies). */
typedef enum fastblake_blake2_algorithm {
  FASTBLAKE_BLAKE2B = 0,  /* 1 to 64 bytes of hash; keys up to 64 bytes */
  FASTBLAKE_BLAKE2S = 1,  /* 1 to 32 bytes; keys up to 32 bytes */
  FASTBLAKE_BLAKE2BP = 2, /* BLAKE2b over 4 leaves: hash length and key only */
  FASTBLAKE_BLAKE2SP = 3, /* BLAKE2s over 8 leaves: hash length and key only */
  FASTBLAKE_BLAKE2XB = 4, /* BLAKE2Xb: hash_length is the output's, 1 to 2^32 - 2 bytes (0: 64);
                             key, salt and personalisation; no tree parameters */
  FASTBLAKE_BLAKE2XS = 5  /* BLAKE2Xs: 1 to 65534 bytes of output (0: 32) */
} fastblake_blake2_algorithm;

/** BLAKE2's parameter block (RFC 7693 and the BLAKE2 paper). Start from
 * fastblake_blake2_params_init, which sets the defaults, then change fields. Pointers are read
 * only during the call they are passed to. */
typedef struct fastblake_blake2_params {
  size_t hash_length; /* 0: the algorithm's maximum (64 or 32) */
  const void* key;    /* key_length bytes; NULL with 0 for none */
  size_t key_length;
  const void* salt; /* up to 16 (BLAKE2b) or 8 (BLAKE2s) bytes, zero-padded */
  size_t salt_length;
  const void* personal; /* the same lengths as salt */
  size_t personal_length;
  unsigned fanout;    /* 0 to 255; 1 by default */
  unsigned max_depth; /* 1 to 255; 1 by default */
  uint32_t max_leaf_length;
  uint64_t node_offset;     /* up to 2^64 - 1 (BLAKE2b) or 2^48 - 1 (BLAKE2s) */
  unsigned node_depth;      /* 0 to 255 */
  size_t inner_hash_length; /* 0 to the maximum hash length */
  int last_node;            /* non-zero: this is the last node of its level */
} fastblake_blake2_params;

/** The defaults: full length, no key, salt or personalisation, sequential mode. */
FASTBLAKE_API void fastblake_blake2_params_init(fastblake_blake2_params* params);

/** Hashes input with `params` (NULL: the defaults) and writes the hash, params->hash_length
 * bytes (or the maximum), to out. Returns 0, or EINVAL, writing nothing, for a parameter out of
 * range, an unknown algorithm, or a tree parameter given to BLAKE2bp or BLAKE2sp (which fix
 * them). */
FASTBLAKE_API int fastblake_blake2(int algorithm, const fastblake_blake2_params* params,
                                   const void* input, size_t input_len, uint8_t* out);

/** A BLAKE2 hash in progress, of any of the four algorithms. 8-byte aligned. */
typedef struct fastblake_blake2_state {
  uint64_t opaque[192];
} fastblake_blake2_state;

/** Starts a hash; returns as fastblake_blake2. */
FASTBLAKE_API int fastblake_blake2_init(fastblake_blake2_state* self, int algorithm,
                                        const fastblake_blake2_params* params);
FASTBLAKE_API void fastblake_blake2_update(fastblake_blake2_state* self, const void* input,
                                           size_t input_len);
/** Writes the hash of everything absorbed so far (the parameters' length) to out; updates may
 * continue. Returns the number of bytes written. */
FASTBLAKE_API size_t fastblake_blake2_finalize(const fastblake_blake2_state* self, uint8_t* out);
/** Bytes [offset, offset + out_len) of the hash (any range of BLAKE2X's output on its own).
 * Returns 0, or EINVAL, writing nothing, for a range past the hash's end. */
FASTBLAKE_API int fastblake_blake2_finalize_range(const fastblake_blake2_state* self,
                                                  uint64_t offset, uint8_t* out, size_t out_len);

/** Hashes `count` independent inputs with one algorithm (BLAKE2B or BLAKE2S) and parameter
 * set: the hash of input i (lengths[i] bytes at inputs[i]) at out + i * hash length, several
 * inputs a SIMD register. Returns 0, or EINVAL (as fastblake_blake2) or ENOMEM, writing
 * nothing. */
FASTBLAKE_API int fastblake_blake2_hash_many(int algorithm, const fastblake_blake2_params* params,
                                             const void* const* inputs, const size_t* lengths,
                                             size_t count, uint8_t* out);

/* ---- Bao: verified streaming (<fastblake/bao.hpp>, docs/bao.md) ---- */

/** The formats: the combined encoding (the length, parents and input in pre-order), the
 * outboard one (without the input), and bao-tree's post-order outboard (the parents in
 * post-order, then the length; bao::format::post_order_outboard), which the in-memory encoder,
 * the stream encoder and fastblake_bao_convert_outboard take. */
enum {
  FASTBLAKE_BAO_COMBINED = 0,
  FASTBLAKE_BAO_OUTBOARD = 1,
  FASTBLAKE_BAO_POST_ORDER_OUTBOARD = 2
};

/** The size of the encoding of content_len bytes in that format with chunk groups of
 * 2^group_log chunks (0: Bao itself); 0 for a group_log above 32, an unknown format, or a size
 * above 2^64 - 1 (a combined encoding of more than about 0.94 x 2^64 bytes), which no
 * encoding can have. */
FASTBLAKE_API uint64_t fastblake_bao_encoded_size(uint64_t content_len, int format,
                                                  unsigned group_log);

/** Encodes input into out, which must hold fastblake_bao_encoded_size() bytes, and writes the
 * root hash (the input's BLAKE3 hash) to hash. Returns 0; EINVAL for a format or group_log
 * unknown; ERANGE where out_capacity is smaller; nothing written on failure. */
FASTBLAKE_API int fastblake_bao_encode(const void* input, size_t input_len, int format,
                                       unsigned group_log, uint8_t* out, size_t out_capacity,
                                       uint8_t hash[32]);

/** Decodes a combined encoding (data NULL, data_len 0) or an outboard one with the input it
 * describes (data), checking every node against hash, and writes the input to out, its length
 * to *out_len. Returns 0; FASTBLAKE_EBAO_MISMATCH or FASTBLAKE_EBAO_TRUNCATED, with the failing
 * node's offset (in the encoding; for an outboard's chunk, in data) in *error_offset where
 * error_offset is not NULL; ERANGE, with the checked length in *out_len, where out_capacity is
 * smaller; EINVAL for a group_log above 32. Nothing is written to out unless it returns 0. */
FASTBLAKE_API int fastblake_bao_decode(const uint8_t hash[32], const void* encoded,
                                       size_t encoded_len, const void* data, size_t data_len,
                                       unsigned group_log, uint8_t* out, size_t out_capacity,
                                       size_t* out_len, uint64_t* error_offset);

/** The slice for input bytes [start, start + count) of a combined encoding (data NULL) or of an
 * outboard and its input (data), as Bao cuts it (a count of 0 counts as 1; a start past the end
 * selects the last chunk). Writes it to out and its length to *out_len. Returns 0;
 * FASTBLAKE_EBAO_TRUNCATED (and *error_offset) where the encoding is shorter than its header
 * says; ERANGE, with the slice's length in *out_len, where out_capacity is smaller; EINVAL. */
FASTBLAKE_API int fastblake_bao_extract_slice(const void* encoded, size_t encoded_len,
                                              const void* data, size_t data_len, uint64_t start,
                                              uint64_t count, unsigned group_log, uint8_t* out,
                                              size_t out_capacity, size_t* out_len,
                                              uint64_t* error_offset);

/** Decodes a slice for [start, start + count), checked against hash: writes the input bytes it
 * proves (fewer where the input ends first) to out, their count to *out_len. Returns as
 * fastblake_bao_decode. */
FASTBLAKE_API int fastblake_bao_decode_slice(const uint8_t hash[32], const void* slice,
                                             size_t slice_len, uint64_t start, uint64_t count,
                                             unsigned group_log, uint8_t* out, size_t out_capacity,
                                             size_t* out_len, uint64_t* error_offset);

/** An outboard in the other order: a pre-order one (FASTBLAKE_BAO_OUTBOARD) as a post-order
 * one (to_format FASTBLAKE_BAO_POST_ORDER_OUTBOARD), or back (to_format
 * FASTBLAKE_BAO_OUTBOARD), nothing checked. Writes it to out and its length to *out_len.
 * Returns 0; FASTBLAKE_EBAO_TRUNCATED (and *error_offset) where the bytes do not hold the
 * parents their length needs; ERANGE, with the length in *out_len, where out_capacity is
 * smaller; EINVAL. */
FASTBLAKE_API int fastblake_bao_convert_outboard(const void* outboard, size_t outboard_len,
                                                 int to_format, unsigned group_log, uint8_t* out,
                                                 size_t out_capacity, size_t* out_len,
                                                 uint64_t* error_offset);

/** Where a reader or encoder reads: up to len bytes at offset into buf. Returns how many it
 * read, fewer than len only at the end of its bytes; or -1 with errno set, which the call
 * that was reading then returns. */
typedef long long (*fastblake_bao_read_fn)(void* context, uint64_t offset, void* buf, size_t len);

/** Where the stream encoder and the slicer write: len bytes at offset. Returns 0, or -1 with
 * errno set. */
typedef int (*fastblake_bao_write_fn)(void* context, uint64_t offset, const void* buf, size_t len);

/** The slice of fastblake_bao_extract_slice, of an encoding read with tree (data NULL) or of an
 * outboard read with tree and its input read with data, written with out in order from offset 0 as
 * it is read (about 1 MiB of memory whatever its size); its length to *slice_len. Returns 0;
 * FASTBLAKE_EBAO_TRUNCATED (and *error_offset); what a read or write function's errno said;
 * EINVAL. */
FASTBLAKE_API int fastblake_bao_extract_slice_to(fastblake_bao_read_fn tree, void* tree_context,
                                                 fastblake_bao_read_fn data, void* data_context,
                                                 uint64_t start, uint64_t count, unsigned group_log,
                                                 fastblake_bao_write_fn out, void* out_context,
                                                 uint64_t* slice_len, uint64_t* error_offset);

/** A verifying reader (bao::reader): read() hands out only bytes that, with every node above
 * them, have been checked against the hash; seek() moves anywhere. Memory stays about 1 MiB. */
typedef struct fastblake_bao_reader fastblake_bao_reader;

/** A reader of a combined encoding (data NULL) or of an outboard encoding (tree) and the input
 * it describes (data), each read through its function with its context. Sets *reader. Returns
 * 0; EINVAL for a group_log above 32 or a tree function that is NULL; ENOMEM. */
FASTBLAKE_API int fastblake_bao_reader_new(const uint8_t hash[32], fastblake_bao_read_fn tree,
                                           void* tree_context, fastblake_bao_read_fn data,
                                           void* data_context, unsigned group_log,
                                           fastblake_bao_reader** reader);
#if FASTBLAKE_FILES
/** The same over open file descriptors, read with pread(2): data_fd -1 for a combined
 * encoding. They must stay open while the reader lives. */
FASTBLAKE_API int fastblake_bao_reader_open(const uint8_t hash[32], int tree_fd, int data_fd,
                                            unsigned group_log, fastblake_bao_reader** reader);
#endif
/** A reader of a post-order outboard (FASTBLAKE_BAO_POST_ORDER_OUTBOARD) of outboard_size
 * bytes and the input it describes, through bao::pre_order_view: as fastblake_bao_reader_new
 * reads a pre-order one, without converting it. Returns as fastblake_bao_reader_new (EINVAL
 * for a NULL function too). */
FASTBLAKE_API int fastblake_bao_reader_new_post_order(
    const uint8_t hash[32], fastblake_bao_read_fn outboard, void* outboard_context,
    uint64_t outboard_size, fastblake_bao_read_fn data, void* data_context, unsigned group_log,
    fastblake_bao_reader** reader);
/** A reader over a slice for input bytes [start, start + count) (bao::reader::over_slice): its
 * bytes, checked as fastblake_bao_decode_slice checks them, the slice read once from its start
 * in bounded memory. The position starts at start; a read returns 0 bytes at start + count or
 * the input's end; a read before start, or the length where the slice does not reach the
 * input's end, returns ERANGE. */
FASTBLAKE_API int fastblake_bao_reader_new_slice(const uint8_t hash[32],
                                                 fastblake_bao_read_fn slice, void* slice_context,
                                                 uint64_t start, uint64_t count, unsigned group_log,
                                                 fastblake_bao_reader** reader);
FASTBLAKE_API void fastblake_bao_reader_free(fastblake_bao_reader* reader);
/** From now on, decodes a subtree of up to 4 MiB read from its start at once, on the default
 * pool's threads (bao::reader::use_pool): for reading far in order; the same bytes and
 * errors. */
FASTBLAKE_API void fastblake_bao_reader_use_pool(fastblake_bao_reader* reader);

/** Checked bytes from the position into out (up to capacity), their count to *out_len (0 at
 * the end); the position moves past them. Returns 0; FASTBLAKE_EBAO_MISMATCH or
 * FASTBLAKE_EBAO_TRUNCATED with the failing node's offset in *error_offset (where not NULL);
 * or what a read function's errno said. A failure met after some bytes were checked returns
 * those (and 0); the next call returns the failure. */
FASTBLAKE_API int fastblake_bao_reader_read(fastblake_bao_reader* reader, void* out,
                                            size_t capacity, size_t* out_len,
                                            uint64_t* error_offset);
/** Moves the position to any offset, past the end included. */
FASTBLAKE_API void fastblake_bao_reader_seek(fastblake_bao_reader* reader, uint64_t position);
FASTBLAKE_API uint64_t fastblake_bao_reader_position(const fastblake_bao_reader* reader);
/** The input's length, checked (the path to its last leaf is read and checked once). Returns
 * as fastblake_bao_reader_read. */
FASTBLAKE_API int fastblake_bao_reader_length(fastblake_bao_reader* reader, uint64_t* length,
                                              uint64_t* error_offset);

/** An encoder of an input of a length not known before its end (bao::encoder): update() with
 * each part, finalize() after the last. It writes its output, and reads it back at the end,
 * through the two functions (post-order while the input comes, then moved in place to
 * pre-order); on the default pool's threads, in about 10 MiB of memory. */
typedef struct fastblake_bao_encoder fastblake_bao_encoder;

/** An encoder in the format (any of the three) writing through write and reading back through
 * read, both given context. Sets *encoder. Returns 0; EINVAL for a format or group_log unknown
 * or a function that is NULL; ENOMEM. */
FASTBLAKE_API int fastblake_bao_encoder_new(fastblake_bao_read_fn read,
                                            fastblake_bao_write_fn write, void* context, int format,
                                            unsigned group_log, fastblake_bao_encoder** encoder);
#if FASTBLAKE_FILES
/** The same into a file descriptor open for reading and writing (pread and pwrite, from offset
 * 0), which must stay open until finalize. */
FASTBLAKE_API int fastblake_bao_encoder_open(int fd, int format, unsigned group_log,
                                             fastblake_bao_encoder** encoder);
#endif
/** An encoder of a post-order outboard that goes on from an existing one
 * (bao::encoder::resume): the outboard of the content_len bytes that input reads, read and
 * written with read and write (their context, context), as if those bytes had been given to
 * update(); a few nodes and the last piece of the input (up to 4 MiB, or a group) are read and
 * checked against hash before anything is written. Sets *encoder. Returns 0;
 * FASTBLAKE_EBAO_MISMATCH where outboard, input and hash do not agree;
 * FASTBLAKE_EBAO_TRUNCATED (and *error_offset) where either ends too soon; EINVAL where the
 * outboard's length is not content_len (and for a NULL function or a group_log above 32);
 * what a function's errno said; ENOMEM. */
FASTBLAKE_API int fastblake_bao_encoder_resume(fastblake_bao_read_fn read,
                                               fastblake_bao_write_fn write, void* context,
                                               uint64_t content_len, fastblake_bao_read_fn input,
                                               void* input_context, const uint8_t hash[32],
                                               unsigned group_log, fastblake_bao_encoder** encoder,
                                               uint64_t* error_offset);
#if FASTBLAKE_FILES
/** The same over descriptors: the post-order outboard (open for reading and writing) and the
 * input it describes, whose first content_len bytes are read with pread(2) (a file that was
 * appended to). */
FASTBLAKE_API int fastblake_bao_encoder_resume_fd(int outboard_fd, int input_fd,
                                                  uint64_t content_len, const uint8_t hash[32],
                                                  unsigned group_log,
                                                  fastblake_bao_encoder** encoder,
                                                  uint64_t* error_offset);
#endif
/** Takes len more input bytes. Returns 0; the errno of a write or read that failed, or ENOMEM;
 * after any failure, or after finalize, EINVAL. */
FASTBLAKE_API int fastblake_bao_encoder_update(fastblake_bao_encoder* encoder, const void* input,
                                               size_t len);
/** Writes the rest of the encoding and the root hash to hash. Returns as update. */
FASTBLAKE_API int fastblake_bao_encoder_finalize(fastblake_bao_encoder* encoder, uint8_t hash[32]);
FASTBLAKE_API void fastblake_bao_encoder_free(fastblake_bao_encoder* encoder);

#if FASTBLAKE_FILES
/** Encodes content_len bytes of input_fd into out_fd (pread and pwrite; out_fd must be
 * seekable) in the format (not the post-order one), in pieces of 4 MiB on the default pool's
 * threads, in bounded memory; writes the root hash. Returns 0; EINVAL; FASTBLAKE_EBAO_TRUNCATED
 * with the input's offset in *error_offset where the input ends before content_len; an I/O error's
 * errno. */
FASTBLAKE_API int fastblake_bao_encode_fd(int input_fd, uint64_t content_len, int format,
                                          unsigned group_log, int out_fd, uint8_t hash[32],
                                          uint64_t* error_offset);
/** Encodes the regular file at `path` into out_fd (pwrite: seekable) in the format (combined
 * or outboard), as
 * bao::encode_file does: read by the file strategy (a fastblake_file_strategy; the automatic one
 * maps a big file in windows, each encoded on the default pool's threads), in bounded memory;
 * writes the root hash. Returns 0; EINVAL for a format, group_log or strategy unknown, a file
 * that is not regular, or an out_fd that is the file at path (nothing written: it would be
 * destroyed as it is read); an errno value (ENOENT, EACCES, EISDIR, EIO, a write's ENOSPC, ...);
 * FASTBLAKE_ETRUNCATED where the file shrank while it was encoded. */
FASTBLAKE_API int fastblake_bao_encode_file(const char* path, int format, unsigned group_log,
                                            int strategy, int out_fd, uint8_t hash[32]);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FASTBLAKE_FASTBLAKE_H */
