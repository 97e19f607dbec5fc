// TypeScript declarations of fastblake.mjs, the whole of its API (docs/javascript.md of the
// fastblake sources describes it). They need BigInt and SharedArrayBuffer: "lib": ["es2020"]
// or later. Importing the module loads its WebAssembly (top-level await): a CommonJS program
// uses fastblake.cjs, declared in fastblake.d.cts.

/**
 * What every function hashes: a string (its UTF-8 bytes), an ArrayBuffer, a SharedArrayBuffer,
 * or any typed array or DataView (its bytes, in memory order).
 */
export type BytesLike = string | ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/** A non-negative integer below 2^64; a BigInt reaches past 2^53. */
export type Offset = number | bigint;

/** The library's version, "MAJOR.MINOR.PATCH". */
export const version: string;

/** The backend in use: "simd128" (the best), or the one useBackend() chose. */
export function backend(): string;

/** The backends this module can run here, best first (["simd128", "portable"]). */
export function availableBackends(): string[];

/**
 * Switches every later hash to the backend `name` (for tests and measurement).
 * @throws {TypeError} when name is not a string.
 * @throws {Error} when this module has no backend of that name.
 */
export function useBackend(name: string): void;

/**
 * Bytes as lowercase hexadecimal (a string: its UTF-8 bytes).
 * @throws {TypeError} when bytes is none of BytesLike.
 */
export function toHex(bytes: BytesLike): string;

/** Where digest() starts in BLAKE3's extendable output. */
export interface Blake3DigestOptions {
  /** The byte of the output to start at; 0 by default. */
  seek?: Offset;
}

interface Blake3CommonOptions extends Blake3DigestOptions {
  /** Bytes of output; 32 by default. */
  length?: number;
}

/**
 * The options of blake3(): the plain hash, the keyed hash (key) or key derivation (context),
 * never both.
 */
export type Blake3Options =
    | (Blake3CommonOptions & {
        /** The keyed hash (a MAC or PRF): 32 bytes. */
        key?: BytesLike;
        context?: undefined;
      })
    | (Blake3CommonOptions & {
        /** Key derivation: the context string (or its bytes); data is the key material. */
        context?: BytesLike;
        key?: undefined;
      });

/**
 * The BLAKE3 hash of data: 32 bytes, or options.length; options.key (32 bytes) for the keyed
 * hash, options.context for key derivation, options.seek for a later part of the output.
 * @throws {TypeError} for input that is not BytesLike, a length that is not a non-negative
 *   integer, or both a key and a context.
 * @throws {RangeError} for a key that is not 32 bytes, or an output range past 2^64 bytes.
 */
export function blake3(data: BytesLike, options?: Blake3Options): Uint8Array;

/** BLAKE3 in progress: hash, keyed hash or key derivation, and extendable output. */
export class Blake3 {
  /** The plain hash. */
  constructor();

  /**
   * The keyed hash (a MAC or PRF) with a 32-byte key.
   * @throws {RangeError} for a key that is not 32 bytes.
   */
  static keyed(key: BytesLike): Blake3;

  /**
   * Key derivation for a context string (or its bytes), fed the key material.
   * @throws {RangeError} when a context of over 1 MiB finds the module's memory full.
   */
  static deriveKey(context: BytesLike): Blake3;

  /**
   * Absorbs data; returns this.
   * @throws {TypeError} for input that is not BytesLike.
   * @throws {Error} after dispose().
   */
  update(data: BytesLike): this;

  /**
   * `length` bytes of output (32 by default) from byte `seek` of the extendable output.
   * Updates may continue afterwards.
   * @throws {TypeError} for a length that is not a non-negative integer, or a seek that is
   *   neither a safe integer nor a BigInt.
   * @throws {RangeError} for a negative seek, or an output range past 2^64 bytes.
   * @throws {Error} after dispose().
   */
  digest(length?: number, options?: Blake3DigestOptions): Uint8Array;

  /** digest(length, options) as hexadecimal; throws as digest() does. */
  hexDigest(length?: number, options?: Blake3DigestOptions): string;

  /** Bytes absorbed since creation or reset. Throws Error after dispose(). */
  readonly count: number;

  /** Forgets the input, keeping the mode and key; returns this. Throws Error after dispose(). */
  reset(): this;

  /**
   * An independent copy of this hash in progress.
   * @throws {Error} after dispose().
   */
  clone(): Blake3;

  /** Wipes the state, key material included, now: the hasher cannot be used afterwards. Not
   * needed to free memory, which the garbage collector reclaims with the hasher. */
  dispose(): void;
}

/** The BLAKE2 algorithms: the sequential, the parallel (p) and the extendable-output (x) forms. */
export type Blake2Algorithm = 'blake2b' | 'blake2s' | 'blake2bp' | 'blake2sp' | 'blake2xb' | 'blake2xs';

/**
 * Every parameter of BLAKE2's parameter block. Absent ones take BLAKE2's defaults; BLAKE2bp,
 * BLAKE2sp and BLAKE2X fix the tree parameters themselves and refuse them.
 */
export interface Blake2Options {
  /** The hash length (BLAKE2X: the output length) in bytes; 0 or absent: the algorithm's default (64 for the b forms, 32 for the s forms). */
  length?: number;
  /** Up to 64 bytes (b forms) or 32 (s forms). */
  key?: BytesLike;
  /** Up to 16 bytes (b forms) or 8 (s forms), zero-padded. */
  salt?: BytesLike;
  /** The personalisation: up to 16 bytes (b forms) or 8 (s forms), zero-padded. */
  personal?: BytesLike;
  /** 0 (unlimited) to 255; 1 by default. */
  fanout?: number;
  /** 1 to 255 (unlimited); 1 by default. */
  maxDepth?: number;
  /** 0 (unlimited) to 2^32 - 1; 0 by default. */
  maxLeafLength?: number;
  /** Below 2^64 (b forms) or 2^48 (s forms); 0 by default. */
  nodeOffset?: Offset;
  /** 0 to 255; 0 by default. */
  nodeDepth?: number;
  /** 0 to the algorithm's digest size; 0 by default. */
  innerLength?: number;
  /** Whether this is the last node of its level; false by default. */
  lastNode?: boolean;
}

/**
 * BLAKE2 in progress: any of BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp, BLAKE2Xb and BLAKE2Xs, with
 * every parameter of the parameter block.
 */
export class Blake2 {
  /**
   * options are read once and copied: changing them afterwards changes nothing here, and
   * reset() and clone() use what the constructor saw.
   * @throws {TypeError} for an unknown algorithm, options that are not an object, a key, salt
   *   or personalisation that is not BytesLike, or a length that is not a non-negative integer.
   * @throws {RangeError} for a parameter the algorithm refuses (too long, out of range, or fixed
   *   by BLAKE2bp, BLAKE2sp or BLAKE2X).
   */
  constructor(algorithm?: Blake2Algorithm, options?: Blake2Options);

  /** The algorithm's name, as given. */
  readonly algorithm: Blake2Algorithm;

  /** The length of the digest, in bytes. */
  readonly length: number;

  /**
   * Absorbs data; returns this.
   * @throws {TypeError} for input that is not BytesLike.
   * @throws {Error} after dispose().
   */
  update(data: BytesLike): this;

  /** The hash of everything absorbed so far; updates may continue. Throws Error after dispose(). */
  digest(): Uint8Array;

  /**
   * Bytes [offset, offset + length) of the hash: any part of BLAKE2X's output by itself.
   * @throws {TypeError} for an offset or length that is not a non-negative integer.
   * @throws {RangeError} for a range past the end of the hash.
   * @throws {Error} after dispose().
   */
  digestRange(offset: number, length: number): Uint8Array;

  /** The digest as hexadecimal. Throws Error after dispose(). */
  hexDigest(): string;

  /** Starts again with the same parameters; returns this. Throws Error after dispose(). */
  reset(): this;

  /**
   * An independent copy of this hash in progress, with the parameters this one was made with.
   * @throws {Error} after dispose().
   */
  clone(): Blake2;

  /** Wipes the state, key material included, now: the hasher cannot be used afterwards. Not
   * needed to free memory, which the garbage collector reclaims with the hasher. */
  dispose(): void;
}

/**
 * One-shot BLAKE2b: the hash of data, with the options of the Blake2 constructor. Throws as
 * that constructor and update() do. Works whatever the state of the module's memory.
 */
export function blake2b(data: BytesLike, options?: Blake2Options): Uint8Array;
/** One-shot BLAKE2s; see blake2b(). */
export function blake2s(data: BytesLike, options?: Blake2Options): Uint8Array;
/** One-shot BLAKE2bp (4 leaves of BLAKE2b); see blake2b(). */
export function blake2bp(data: BytesLike, options?: Blake2Options): Uint8Array;
/** One-shot BLAKE2sp (8 leaves of BLAKE2s); see blake2b(). */
export function blake2sp(data: BytesLike, options?: Blake2Options): Uint8Array;
/** One-shot BLAKE2Xb: options.length bytes of output (up to 2^32 - 2); see blake2b(). */
export function blake2xb(data: BytesLike, options?: Blake2Options): Uint8Array;
/** One-shot BLAKE2Xs: options.length bytes of output (up to 2^16 - 2); see blake2b(). */
export function blake2xs(data: BytesLike, options?: Blake2Options): Uint8Array;
