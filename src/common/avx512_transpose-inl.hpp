// 16 x 16 transpose of 32-bit words in 512-bit registers, shared by the BLAKE3 and BLAKE2
// AVX-512 kernels.
//
// No include guard and no includes: included inside an AVX-512 file's anonymous namespace after
// <immintrin.h>.

// Row i of r becomes word i of every row: four steps of sixteen shuffles. 32-bit and 64-bit
// interleaves within each 128-bit quarter leave, for j in 0..3 and each group of four rows, word
// 4k + j of those rows in quarter k; two quarter shuffles then gather quarter k of all groups.
inline void transpose_16x16_epi32(__m512i r[16]) {
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  // q[4 * group + j]: rows 4 * group .. 4 * group + 3, word 4k + j in quarter k.
  __m512i q[16];
  for (int group = 0; group < 4; ++group) {
    const __m512i* p = t + 4 * group;
    q[4 * group + 0] = _mm512_unpacklo_epi64(p[0], p[2]);
    q[4 * group + 1] = _mm512_unpackhi_epi64(p[0], p[2]);
    q[4 * group + 2] = _mm512_unpacklo_epi64(p[1], p[3]);
    q[4 * group + 3] = _mm512_unpackhi_epi64(p[1], p[3]);
  }
  for (int j = 0; j < 4; ++j) {
    // Quarters 0 and 2 / 1 and 3 of groups 0-1 and of groups 2-3.
    const __m512i even01 = _mm512_shuffle_i32x4(q[j], q[4 + j], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512i odd01 = _mm512_shuffle_i32x4(q[j], q[4 + j], _MM_SHUFFLE(3, 1, 3, 1));
    const __m512i even23 = _mm512_shuffle_i32x4(q[8 + j], q[12 + j], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512i odd23 = _mm512_shuffle_i32x4(q[8 + j], q[12 + j], _MM_SHUFFLE(3, 1, 3, 1));
    r[0 + j] = _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(2, 0, 2, 0));
    r[8 + j] = _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(3, 1, 3, 1));
    r[4 + j] = _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(2, 0, 2, 0));
    r[12 + j] = _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(3, 1, 3, 1));
  }
}

// 8 x 8 transpose of 64-bit words: row i of r becomes word i of every row.
inline void transpose_8x8_epi64(__m512i r[8]) {
  __m512i t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm512_unpacklo_epi64(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi64(r[i], r[i + 1]);
  }
  // t[2g + j]: rows 2g, 2g + 1, word 2k + j in quarter k.
  __m512i u[8];
  for (int j = 0; j < 2; ++j) {
    // Quarters 0, 2 of rows 0-3 (words 0 and 4 of them) and 1, 3 (words 2 and 6); likewise rows
    // 4-7.
    u[0 + j] = _mm512_shuffle_i64x2(t[0 + j], t[2 + j], _MM_SHUFFLE(2, 0, 2, 0));
    u[2 + j] = _mm512_shuffle_i64x2(t[0 + j], t[2 + j], _MM_SHUFFLE(3, 1, 3, 1));
    u[4 + j] = _mm512_shuffle_i64x2(t[4 + j], t[6 + j], _MM_SHUFFLE(2, 0, 2, 0));
    u[6 + j] = _mm512_shuffle_i64x2(t[4 + j], t[6 + j], _MM_SHUFFLE(3, 1, 3, 1));
  }
  for (int j = 0; j < 2; ++j) {
    r[0 + j] = _mm512_shuffle_i64x2(u[0 + j], u[4 + j], _MM_SHUFFLE(2, 0, 2, 0));
    r[4 + j] = _mm512_shuffle_i64x2(u[0 + j], u[4 + j], _MM_SHUFFLE(3, 1, 3, 1));
    r[2 + j] = _mm512_shuffle_i64x2(u[2 + j], u[6 + j], _MM_SHUFFLE(2, 0, 2, 0));
    r[6 + j] = _mm512_shuffle_i64x2(u[2 + j], u[6 + j], _MM_SHUFFLE(3, 1, 3, 1));
  }
}
