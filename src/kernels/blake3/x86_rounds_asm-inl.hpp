// The seven rounds of the many-block kernels (simd-inl.hpp's wide_rounds) as one GNU inline-asm
// statement, for the x86 levels without AVX-512's 32 registers and native rotates.
//
// Why: sixteen state vectors fill the sixteen registers, and a rotate by 12 or 7 needs a
// seventeenth for its shifted copy. GCC and Clang then spill state words all over the round
// (about 140 stores of 256-bit registers per block with AVX2, many of them stored and reloaded
// on the critical path) and keep the byte-shuffle masks in registers the state needs. Here
// state word i lives in register i for all seven rounds; message words and shuffle masks are
// memory operands, and c0's register is lent out for the shifted copies while c0 waits in
// memory: two stores and two loads per four G functions, off the critical path. The compiler
// still does everything around the rounds (loads, transposes, feed-forward).
//
// A flavour F provides F_HALF: half of four G functions (a += m + b, d = rotr(d ^ a), c += d,
// b = rotr(b ^ c)) with its rotates of d by 16 or 8 (F_ROTD16, F_ROTD8). VEX serves 128- and
// 256-bit registers (R is the register name without its number, S the vector size in bytes);
// SSSE3 and SSE2 are the two-operand forms for xmm.
#pragma once

// clang-format does not converge on these macros:
// clang-format off

#if defined(__GNUC__) && defined(__x86_64__) && !defined(FASTBLAKE_ISA_AVX512) && \
    !defined(FASTBLAKE_NO_INLINE_ASM)
#define FASTBLAKE_BLAKE3_ROUNDS_ASM 1

#define FASTBLAKE_ASM_REG(R, n) "%%" R #n
#define FASTBLAKE_ASM_MSG(S, w) S "*" #w "(%[m])"
// dst = dst op src in either form.
#define FASTBLAKE_ASM_3OP(op, src, dst) op " " src ", " dst ", " dst "\n\t"
#define FASTBLAKE_ASM_2OP(op, src, dst) op " " src ", " dst "\n\t"

// rotr(w, right) through the register t: w >> right | w << left.
#define FASTBLAKE_ASM_VEX_ROT(R, w, t, right, left) \
  "vpsrld $" #right ", " FASTBLAKE_ASM_REG(R, w) ", " FASTBLAKE_ASM_REG(R, t) "\n\t" \
  "vpslld $" #left ", " FASTBLAKE_ASM_REG(R, w) ", " FASTBLAKE_ASM_REG(R, w) "\n\t"  \
  FASTBLAKE_ASM_3OP("vpor", FASTBLAKE_ASM_REG(R, t), FASTBLAKE_ASM_REG(R, w))
#define FASTBLAKE_ASM_SSE_ROT(R, w, t, right, left) \
  "movdqa " FASTBLAKE_ASM_REG(R, w) ", " FASTBLAKE_ASM_REG(R, t) "\n\t"             \
  "psrld $" #right ", " FASTBLAKE_ASM_REG(R, t) "\n\t"                              \
  "pslld $" #left ", " FASTBLAKE_ASM_REG(R, w) "\n\t"                               \
  FASTBLAKE_ASM_2OP("por", FASTBLAKE_ASM_REG(R, t), FASTBLAKE_ASM_REG(R, w))

// The four rotates of `rot` (VEX_ROT or SSE_ROT) on w0..w3, through c0's register with c0
// saved in the spill slot meanwhile.
#define FASTBLAKE_ASM_SPILLED(mov, rot, R, c0, w0, w1, w2, w3, right, left)                   \
  mov " " FASTBLAKE_ASM_REG(R, c0) ", %[spill]\n\t" rot(R, w0, c0, right, left)               \
      rot(R, w1, c0, right, left) rot(R, w2, c0, right, left) rot(R, w3, c0, right, left) mov \
      " %[spill], " FASTBLAKE_ASM_REG(R, c0) "\n\t"

#define FASTBLAKE_ASM_FOUR(form, op, src, R, w0, w1, w2, w3)                      \
  form(op, src, FASTBLAKE_ASM_REG(R, w0)) form(op, src, FASTBLAKE_ASM_REG(R, w1)) \
      form(op, src, FASTBLAKE_ASM_REG(R, w2)) form(op, src, FASTBLAKE_ASM_REG(R, w3))
// dst_i = dst_i op src_i for four register pairs.
#define FASTBLAKE_ASM_PAIRS(form, op, R, s0, s1, s2, s3, d0, d1, d2, d3) \
  form(op, FASTBLAKE_ASM_REG(R, s0), FASTBLAKE_ASM_REG(R, d0))           \
      form(op, FASTBLAKE_ASM_REG(R, s1), FASTBLAKE_ASM_REG(R, d1))       \
          form(op, FASTBLAKE_ASM_REG(R, s2), FASTBLAKE_ASM_REG(R, d2))   \
              form(op, FASTBLAKE_ASM_REG(R, s3), FASTBLAKE_ASM_REG(R, d3))

// c_i += d_i, two-operand form (the SSE flavours).
#define FASTBLAKE_ASM_SSE_ADDC(R, c0, c1, c2, c3, d0, d1, d2, d3) \
  FASTBLAKE_ASM_PAIRS(FASTBLAKE_ASM_2OP, "paddd", R, d0, d1, d2, d3, c0, c1, c2, c3)

// ---- the half G, shared by the flavours: `form` and its mnemonics, then the two rotates ----
#define FASTBLAKE_ASM_HALF(form, add, xor_, rotd, addc, rotb, R, S, a0, a1, a2, a3, b0, b1, b2,  \
                           b3, c0, c1, c2, c3, d0, d1, d2, d3, m0, m1, m2, m3, right, left)      \
  form(add, FASTBLAKE_ASM_MSG(S, m0), FASTBLAKE_ASM_REG(R, a0))                                  \
      form(add, FASTBLAKE_ASM_MSG(S, m1), FASTBLAKE_ASM_REG(R, a1))                              \
          form(add, FASTBLAKE_ASM_MSG(S, m2), FASTBLAKE_ASM_REG(R, a2))                          \
              form(add, FASTBLAKE_ASM_MSG(S, m3), FASTBLAKE_ASM_REG(R, a3))                      \
                  FASTBLAKE_ASM_PAIRS(form, add, R, b0, b1, b2, b3, a0, a1, a2, a3)              \
                      FASTBLAKE_ASM_PAIRS(form, xor_, R, a0, a1, a2, a3, d0, d1, d2, d3)         \
                          rotd(R, c0, d0, d1, d2, d3) addc(R, c0, c1, c2, c3, d0, d1, d2, d3)    \
                              FASTBLAKE_ASM_PAIRS(form, xor_, R, c0, c1, c2, c3, b0, b1, b2, b3) \
                                  rotb(R, c0, b0, b1, b2, b3, right, left)

// VEX. c0 waits in memory from the first half's rotate of d to the second half's rotate of b,
// its register holding the shuffle mask, then the shifted copies of b, then the mask again: its
// two updates read it back as a memory operand (c0 = d0 + spill), and only the last rotate
// reloads it. Three stores and five loads per four G functions; the mask is one load each time.
#define FASTBLAKE_ASM_VEX_SHUFFLE_D(mask, R, c0, d0, d1, d2, d3)               \
  "vmovdqu %[" #mask "], " FASTBLAKE_ASM_REG(R, c0) "\n\t" FASTBLAKE_ASM_FOUR( \
      FASTBLAKE_ASM_3OP, "vpshufb", FASTBLAKE_ASM_REG(R, c0), R, d0, d1, d2, d3)
#define FASTBLAKE_ASM_VEX_ROTD16(R, c0, d0, d1, d2, d3)                                          \
  "vmovdqu " FASTBLAKE_ASM_REG(R, c0) ", %[spill]\n\t" FASTBLAKE_ASM_VEX_SHUFFLE_D(rot16, R, c0, \
                                                                                   d0, d1, d2, d3)
#define FASTBLAKE_ASM_VEX_ROTD8(R, c0, d0, d1, d2, d3) \
  FASTBLAKE_ASM_VEX_SHUFFLE_D(rot8, R, c0, d0, d1, d2, d3)
#define FASTBLAKE_ASM_VEX_ADDC(R, c0, c1, c2, c3, d0, d1, d2, d3)                     \
  "vpaddd %[spill], " FASTBLAKE_ASM_REG(R, d0) ", " FASTBLAKE_ASM_REG(                \
      R, c0) "\n\t" FASTBLAKE_ASM_3OP("vpaddd", FASTBLAKE_ASM_REG(R, d1),             \
                                      FASTBLAKE_ASM_REG(R, c1))                       \
      FASTBLAKE_ASM_3OP("vpaddd", FASTBLAKE_ASM_REG(R, d2), FASTBLAKE_ASM_REG(R, c2)) \
          FASTBLAKE_ASM_3OP("vpaddd", FASTBLAKE_ASM_REG(R, d3), FASTBLAKE_ASM_REG(R, c3))
#define FASTBLAKE_ASM_VEX_ROT4(R, t, w0, w1, w2, w3, right, left)                           \
  FASTBLAKE_ASM_VEX_ROT(R, w0, t, right, left)                                              \
  FASTBLAKE_ASM_VEX_ROT(R, w1, t, right, left) FASTBLAKE_ASM_VEX_ROT(R, w2, t, right, left) \
      FASTBLAKE_ASM_VEX_ROT(R, w3, t, right, left)
#define FASTBLAKE_ASM_VEX_ROTB_KEEP(R, c0, b0, b1, b2, b3, right, left)                          \
  "vmovdqu " FASTBLAKE_ASM_REG(R, c0) ", %[spill]\n\t" FASTBLAKE_ASM_VEX_ROT4(R, c0, b0, b1, b2, \
                                                                              b3, right, left)
#define FASTBLAKE_ASM_VEX_ROTB(R, c0, b0, b1, b2, b3, right, left) \
  FASTBLAKE_ASM_VEX_ROTB_KEEP(R, c0, b0, b1, b2, b3, right, left)  \
  "vmovdqu %[spill], " FASTBLAKE_ASM_REG(R, c0) "\n\t"
#define FASTBLAKE_ASM_VEX_HALF1(...)                                                 \
  FASTBLAKE_ASM_HALF(FASTBLAKE_ASM_3OP, "vpaddd", "vpxor", FASTBLAKE_ASM_VEX_ROTD16, \
                     FASTBLAKE_ASM_VEX_ADDC, FASTBLAKE_ASM_VEX_ROTB_KEEP, __VA_ARGS__)
#define FASTBLAKE_ASM_VEX_HALF2(...)                                                \
  FASTBLAKE_ASM_HALF(FASTBLAKE_ASM_3OP, "vpaddd", "vpxor", FASTBLAKE_ASM_VEX_ROTD8, \
                     FASTBLAKE_ASM_VEX_ADDC, FASTBLAKE_ASM_VEX_ROTB, __VA_ARGS__)

// SSSE3: byte shuffles too, in the two-operand form.
#define FASTBLAKE_ASM_SSSE3_ROTD16(R, c0, d0, d1, d2, d3) \
  FASTBLAKE_ASM_FOUR(FASTBLAKE_ASM_2OP, "pshufb", "%[rot16]", R, d0, d1, d2, d3)
#define FASTBLAKE_ASM_SSSE3_ROTD8(R, c0, d0, d1, d2, d3) \
  FASTBLAKE_ASM_FOUR(FASTBLAKE_ASM_2OP, "pshufb", "%[rot8]", R, d0, d1, d2, d3)
#define FASTBLAKE_ASM_SSE_ROTB(R, c0, b0, b1, b2, b3, right, left) \
  FASTBLAKE_ASM_SPILLED("movdqa", FASTBLAKE_ASM_SSE_ROT, R, c0, b0, b1, b2, b3, right, left)
#define FASTBLAKE_ASM_SSE_HALF(rotd, ...)                                              \
  FASTBLAKE_ASM_HALF(FASTBLAKE_ASM_2OP, "paddd", "pxor", rotd, FASTBLAKE_ASM_SSE_ADDC, \
                     FASTBLAKE_ASM_SSE_ROTB, __VA_ARGS__)
#define FASTBLAKE_ASM_SSSE3_HALF1(...) \
  FASTBLAKE_ASM_SSE_HALF(FASTBLAKE_ASM_SSSE3_ROTD16, __VA_ARGS__)
#define FASTBLAKE_ASM_SSSE3_HALF2(...) \
  FASTBLAKE_ASM_SSE_HALF(FASTBLAKE_ASM_SSSE3_ROTD8, __VA_ARGS__)

// SSE2: the rotate by 16 swaps 16-bit words; the rotate by 8 shifts, through c0's register
// before c takes its new value.
#define FASTBLAKE_ASM_SSE2_SWAP(R, d) \
  "pshuflw $0xB1, " FASTBLAKE_ASM_REG(R, d) ", " FASTBLAKE_ASM_REG(R, d) "\n\t" \
  "pshufhw $0xB1, " FASTBLAKE_ASM_REG(R, d) ", " FASTBLAKE_ASM_REG(R, d) "\n\t"
#define FASTBLAKE_ASM_SSE2_ROTD16(R, c0, d0, d1, d2, d3) \
  FASTBLAKE_ASM_SSE2_SWAP(R, d0)                         \
  FASTBLAKE_ASM_SSE2_SWAP(R, d1) FASTBLAKE_ASM_SSE2_SWAP(R, d2) FASTBLAKE_ASM_SSE2_SWAP(R, d3)
#define FASTBLAKE_ASM_SSE2_ROTD8(R, c0, d0, d1, d2, d3) \
  FASTBLAKE_ASM_SPILLED("movdqa", FASTBLAKE_ASM_SSE_ROT, R, c0, d0, d1, d2, d3, 8, 24)
#define FASTBLAKE_ASM_SSE2_HALF1(...) FASTBLAKE_ASM_SSE_HALF(FASTBLAKE_ASM_SSE2_ROTD16, __VA_ARGS__)
#define FASTBLAKE_ASM_SSE2_HALF2(...) FASTBLAKE_ASM_SSE_HALF(FASTBLAKE_ASM_SSE2_ROTD8, __VA_ARGS__)

// Four G functions: state registers a, b, c, d (four each), message words x and y.
#define FASTBLAKE_ASM_G4(F, R, S, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, \
                         x0, x1, x2, x3, y0, y1, y2, y3)                                          \
  F##_HALF1(R, S, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3, \
            12, 20) F##_HALF2(R, S, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2,   \
                              d3, y0, y1, y2, y3, 7, 25)

// One round reading message words s0..s15 in that order: columns, then diagonals (simd-inl.hpp's
// wide_round).
#define FASTBLAKE_ASM_ROUND(F, R, S, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13,  \
                            s14, s15)                                                             \
  FASTBLAKE_ASM_G4(F, R, S, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s0, s2, s4, s6, \
                   s1, s3, s5, s7)                                                                \
  FASTBLAKE_ASM_G4(F, R, S, 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s8, s10, s12,   \
                   s14, s9, s11, s13, s15)

// The message schedule, spelled out for the templates; simd-inl.hpp checks it against
// schedule.hpp's.
#define FASTBLAKE_ASM_SCHEDULE(X, ...)                                 \
  X(__VA_ARGS__, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) \
  X(__VA_ARGS__, 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8) \
  X(__VA_ARGS__, 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1) \
  X(__VA_ARGS__, 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6) \
  X(__VA_ARGS__, 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4) \
  X(__VA_ARGS__, 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7) \
  X(__VA_ARGS__, 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13)

// Moves state vector n between its register and memory at p.
#define FASTBLAKE_ASM_LOAD(mov, R, S, p, n, i) \
  mov " " S "*" #i "(%[" #p "]), " FASTBLAKE_ASM_REG(R, n) "\n\t"
#define FASTBLAKE_ASM_STORE(mov, R, S, p, n, i) \
  mov " " FASTBLAKE_ASM_REG(R, n) ", " S "*" #i "(%[" #p "])\n\t"
#define FASTBLAKE_ASM_EIGHT(X, mov, R, S, p, first)                                              \
  X(mov, R, S, p, first##0, 0) X(mov, R, S, p, first##1, 1) X(mov, R, S, p, first##2, 2)         \
  X(mov, R, S, p, first##3, 3) X(mov, R, S, p, first##4, 4) X(mov, R, S, p, first##5, 5)         \
  X(mov, R, S, p, first##6, 6) X(mov, R, S, p, first##7, 7)
// Register numbers 0..7 and 8..15 for FASTBLAKE_ASM_EIGHT's token pasting.
#define FASTBLAKE_ASM_LOW0 0
#define FASTBLAKE_ASM_LOW1 1
#define FASTBLAKE_ASM_LOW2 2
#define FASTBLAKE_ASM_LOW3 3
#define FASTBLAKE_ASM_LOW4 4
#define FASTBLAKE_ASM_LOW5 5
#define FASTBLAKE_ASM_LOW6 6
#define FASTBLAKE_ASM_LOW7 7
#define FASTBLAKE_ASM_HIGH0 8
#define FASTBLAKE_ASM_HIGH1 9
#define FASTBLAKE_ASM_HIGH2 10
#define FASTBLAKE_ASM_HIGH3 11
#define FASTBLAKE_ASM_HIGH4 12
#define FASTBLAKE_ASM_HIGH5 13
#define FASTBLAKE_ASM_HIGH6 14
#define FASTBLAKE_ASM_HIGH7 15

#define FASTBLAKE_ASM_CLOBBERS                                                             \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory"

// The seven rounds on v (16 vectors, in and out of registers 0..15) with message m.
#define FASTBLAKE_ASM_ROUNDS(F, mov, R, S, v, m, spill, mask16, mask8)                            \
  asm volatile(                                                                                   \
      FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_LOAD, mov, R, S, lo, FASTBLAKE_ASM_LOW)                   \
          FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_LOAD, mov, R, S, hi, FASTBLAKE_ASM_HIGH)              \
              FASTBLAKE_ASM_SCHEDULE(FASTBLAKE_ASM_ROUND, F, R, S)                                \
                  FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_STORE, mov, R, S, lo, FASTBLAKE_ASM_LOW)      \
                      FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_STORE, mov, R, S, hi, FASTBLAKE_ASM_HIGH) \
      : [spill] "=m"(spill)                                                                       \
      : [lo] "r"(v), [hi] "r"((v) + 8), [m] "r"(m), [rot16] "m"(mask16), [rot8] "m"(mask8)        \
      : FASTBLAKE_ASM_CLOBBERS)

// One compression's chaining value: h (8 vectors) = the first half of the rounds on {h, tail}
// xor the second, with h kept in registers from its load to its store.
#define FASTBLAKE_ASM_COMPRESS(F, form, xor_op, mov, R, S, h, tail, m, spill, mask16, mask8)     \
  asm volatile(FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_LOAD, mov, R, S, lo, FASTBLAKE_ASM_LOW)         \
                   FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_LOAD, mov, R, S, hi, FASTBLAKE_ASM_HIGH)    \
                       FASTBLAKE_ASM_SCHEDULE(FASTBLAKE_ASM_ROUND, F, R, S)                      \
                           FASTBLAKE_ASM_PAIRS(form, xor_op, R, 8, 9, 10, 11, 0, 1, 2, 3)        \
                               FASTBLAKE_ASM_PAIRS(form, xor_op, R, 12, 13, 14, 15, 4, 5, 6, 7)  \
                                   FASTBLAKE_ASM_EIGHT(FASTBLAKE_ASM_STORE, mov, R, S, lo,       \
                                                       FASTBLAKE_ASM_LOW)                        \
               : [spill] "=m"(spill)                                                             \
               : [lo] "r"(h), [hi] "r"(tail), [m] "r"(m), [rot16] "m"(mask16), [rot8] "m"(mask8) \
               : FASTBLAKE_ASM_CLOBBERS)

#endif
// clang-format on
