/* The JavaScript module's own entry points, for what the C interface takes in a form
 * JavaScript cannot pass directly: 64-bit integers (this emscripten has no BigInt integration,
 * so they arrive as two 32-bit halves) and BLAKE2's parameter struct (as arguments, so that no
 * struct layout is repeated in JavaScript). */
#include <emscripten/emscripten.h>
#include <fastblake/fastblake.h>

EMSCRIPTEN_KEEPALIVE size_t fastblake_js_blake3_hasher_size(void) {
  return sizeof(fastblake_blake3_hasher);
}

EMSCRIPTEN_KEEPALIVE size_t fastblake_js_blake2_state_size(void) {
  return sizeof(fastblake_blake2_state);
}

static uint64_t join(uint32_t low, uint32_t high) { return (uint64_t)high << 32 | low; }

EMSCRIPTEN_KEEPALIVE int fastblake_js_blake3_finalize_seek(const fastblake_blake3_hasher* self,
                                                           uint32_t seek_low, uint32_t seek_high,
                                                           uint8_t* out, size_t out_len) {
  return fastblake_blake3_hasher_finalize_seek(self, join(seek_low, seek_high), out, out_len);
}

/* The bytes absorbed so far, exact below 2^53. */
EMSCRIPTEN_KEEPALIVE double fastblake_js_blake3_count(const fastblake_blake3_hasher* self) {
  return (double)fastblake_blake3_hasher_count(self);
}

/* `tree` holds the tree parameters in the order of fastblake_blake2_params: fanout, max_depth,
 * max_leaf_length, node_offset's low and high halves, node_depth, inner_hash_length and
 * last_node; NULL keeps the defaults. */
EMSCRIPTEN_KEEPALIVE int fastblake_js_blake2_init(fastblake_blake2_state* self, int algorithm,
                                                  size_t hash_length, const void* key,
                                                  size_t key_length, const void* salt,
                                                  size_t salt_length, const void* personal,
                                                  size_t personal_length, const uint32_t* tree) {
  fastblake_blake2_params params;
  fastblake_blake2_params_init(&params);
  params.hash_length = hash_length;
  params.key = key;
  params.key_length = key_length;
  params.salt = salt;
  params.salt_length = salt_length;
  params.personal = personal;
  params.personal_length = personal_length;
  if (tree) {
    params.fanout = tree[0];
    params.max_depth = tree[1];
    params.max_leaf_length = tree[2];
    params.node_offset = join(tree[3], tree[4]);
    params.node_depth = tree[5];
    params.inner_hash_length = tree[6];
    params.last_node = tree[7] != 0;
  }
  return fastblake_blake2_init(self, algorithm, &params);
}

EMSCRIPTEN_KEEPALIVE int fastblake_js_blake2_finalize_range(const fastblake_blake2_state* self,
                                                            uint32_t offset_low,
                                                            uint32_t offset_high, uint8_t* out,
                                                            size_t out_len) {
  return fastblake_blake2_finalize_range(self, join(offset_low, offset_high), out, out_len);
}
