// fastblake for JavaScript: BLAKE3 and BLAKE2 from the library compiled to WebAssembly, with its
// SIMD kernels (simd128) where the engine has WebAssembly SIMD. docs/javascript.md describes
// the API. One ES module for Node.js and browsers: it loads the WebAssembly when imported.
import createFastblakeWasm from './fastblake-wasm.mjs';

const wasm = await createFastblakeWasm();

const encoder = new TextEncoder();
// Input travels into the module's memory in pieces of this size, and output out of it, so a
// hash of any size needs one fixed buffer there, taken now.
const pieceSize = 1 << 20;
const scratch = allocate(pieceSize);

// The module's memory grows up to 2 GiB (emscripten's limit). What the one-shot functions and
// the hashers' slots need is taken when the module loads, so hashing never needs more.
function allocate(size) {
  const p = wasm._malloc(Math.max(size, 1));
  if (p === 0) {
    throw new RangeError(`fastblake: cannot allocate ${size} bytes of WebAssembly memory: ` +
                         'its 2 GiB are in use');
  }
  return p;
}

// Brand checks that hold across realms (another vm context, an iframe), where instanceof
// does not: these getters throw for anything but their own kind of buffer.
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const sharedArrayBufferLength = typeof SharedArrayBuffer === 'function' ?
    Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get :
    undefined;
// The byte length of an ArrayBuffer or SharedArrayBuffer of any realm, or undefined.
function bufferLength(data) {
  for (const length of [arrayBufferLength, sharedArrayBufferLength]) {
    if (length === undefined) continue;
    try {
      return length.call(data);
    } catch {
      // not this kind
    }
  }
  return undefined;
}
const empty = new Uint8Array(0);

// The bytes of a string (UTF-8), an ArrayBuffer, a SharedArrayBuffer or any ArrayBuffer view,
// of this realm or another. A view or buffer whose memory was detached (transferred to a
// worker, say) has no bytes: it hashes as empty, as Node.js's crypto hashes it.
function bytesOf(data, what) {
  if (typeof data === 'string') return encoder.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) {
    let length;
    try {
      length = data.byteLength;  // a detached DataView throws here, a typed array gives 0
    } catch {
      return empty;
    }
    return length === 0 ? empty : new Uint8Array(data.buffer, data.byteOffset, length);
  }
  const length = bufferLength(data);
  if (length !== undefined) return length === 0 ? empty : new Uint8Array(data);
  throw new TypeError(`fastblake: ${what} must be a string, an ArrayBuffer or a typed array`);
}

// A non-negative integer below 2^64 (a number or a BigInt) as its 32-bit halves.
function halvesOf(value, what) {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (value < 0) throw new RangeError(`fastblake: ${what} must not be negative`);
    return [value % 2 ** 32, Math.floor(value / 2 ** 32)];
  }
  if (typeof value !== 'bigint') {
    throw new TypeError(`fastblake: ${what} must be a non-negative integer (a number or a BigInt)`);
  }
  if (value < 0n || value >= 1n << 64n) throw new RangeError(`fastblake: ${what} must be below 2^64`);
  return [Number(value & 0xffffffffn), Number(value >> 32n)];
}

function lengthOf(value, what) {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`fastblake: ${what} must be a non-negative integer`);
  }
  return value;
}

// Feeds bytes to update(state, pointer, length) a piece at a time.
function absorb(update, state, bytes) {
  const buffer = scratch;
  for (let at = 0; at < bytes.length; at += pieceSize) {
    const piece = bytes.subarray(at, Math.min(at + pieceSize, bytes.length));
    wasm.HEAPU8.set(piece, buffer);
    update(state, buffer, piece.length);
  }
}

// Runs body(pointer) with a copy of bytes in the module's memory (the scratch buffer where they
// fit), then wipes it: keys and salts do not linger there.
function withBytes(bytes, body) {
  if (bytes.length === 0) return body(0);
  const fits = bytes.length <= pieceSize;
  const p = fits ? scratch : allocate(bytes.length);
  try {
    wasm.HEAPU8.set(bytes, p);
    return body(p);
  } finally {
    wasm.HEAPU8.fill(0, p, p + bytes.length);
    if (!fits) wasm._free(p);
  }
}

// Where hashers' states live. Each hasher's state is its own JavaScript memory, which the
// garbage collector reclaims as it reclaims the hasher, at once and within a synchronous loop;
// the hashing itself runs on states in the module's memory, in a pool of slots per state size.
// A hasher takes a slot when it next hashes and keeps it while it goes on hashing, so the usual
// hasher, updated again and again, works in place at the cost of one check per call. Taking a
// slot from another hasher first copies that one's state out to its own memory (the pool's
// slots are taken in turn, so two hashers used one after the other never take each other's);
// only more hashers than slots, used in turn, copy their state (about 2 KB) in and out per call.
// docs/javascript.md has the measures.
const slotsPerPool = 64;

class SlotPool {
  constructor(size) {
    this.size = size;
    // On a cache line, as every slot then is (the states are whole lines).
    this.base = (allocate(size * slotsPerPool + 63) + 63) & ~63;
    this.owners = new Array(slotsPerPool).fill(null);
    this.next = 0;
  }
  // A slot for `state`, its previous owner's state saved first.
  take(state) {
    const slot = this.next;
    this.next = (slot + 1) % slotsPerPool;
    const owner = this.owners[slot];
    if (owner !== null) owner.leaveSlot();
    this.owners[slot] = state;
    return slot;
  }
  pointer(slot) {
    return this.base + slot * this.size;
  }
}

class State {
  #pool;
  #slot = -1;
  #pointer = 0;     // the slot's address while this state is in it, else 0
  #saved = null;    // the state, once it left its slot; null: never left one
  #disposed = false;
  constructor(pool) {
    this.#pool = pool;
  }
  // The state in the module's memory, for the next call: in its slot (one check, as cheap as
  // the pointer it replaced), or brought into one.
  get pointer() {
    const p = this.#pointer;
    if (p !== 0) return p;
    return this.#takeSlot();
  }
  #takeSlot() {
    if (this.#disposed) throw new Error('fastblake: this hasher has been disposed');
    const pool = this.#pool;
    this.#slot = pool.take(this);
    this.#pointer = pool.pointer(this.#slot);
    if (this.#saved !== null) wasm.HEAPU8.set(this.#saved, this.#pointer);
    return this.#pointer;
  }
  // Called by the pool when another state takes this one's slot.
  leaveSlot() {
    const p = this.#pointer;
    this.#saved ??= new Uint8Array(this.#pool.size);
    this.#saved.set(wasm.HEAPU8.subarray(p, p + this.#pool.size));
    this.#pointer = 0;
  }
  // Through a copy of this state, so that bringing either into a slot cannot move the other.
  copyTo(other) {
    const from = this.pointer;
    const bytes = wasm.HEAPU8.slice(from, from + this.#pool.size);
    wasm.HEAPU8.set(bytes, other.pointer);
  }
  dispose() {
    if (this.#disposed) return;
    if (this.#pointer !== 0) {
      wasm.HEAPU8.fill(0, this.#pointer, this.#pointer + this.#pool.size);
      this.#pool.owners[this.#slot] = null;
      this.#pointer = 0;
    }
    this.#saved?.fill(0);
    this.#saved = null;
    this.#disposed = true;
  }
}

const blake3States = new SlotPool(wasm._fastblake_js_blake3_hasher_size());
const blake2States = new SlotPool(wasm._fastblake_js_blake2_state_size());

/** The library's version, "MAJOR.MINOR.PATCH". */
export const version = wasm.UTF8ToString(wasm._fastblake_version());

/** The backend in use: "simd128" (the best), or the one useBackend() chose. */
export function backend() {
  return wasm.UTF8ToString(wasm._fastblake_active_backend());
}

/** The backends this module can run here, best first. */
export function availableBackends() {
  const capacity = 16;
  const names = scratch;
  const count = Math.min(wasm._fastblake_available_backends(names, capacity), capacity);
  const view = new Uint32Array(wasm.HEAPU8.buffer, names, count);
  return Array.from(view, (p) => wasm.UTF8ToString(p));
}

/** Switches every later hash to the backend `name` (for tests and measurement). */
export function useBackend(name) {
  if (typeof name !== 'string') throw new TypeError('fastblake: a backend name is a string');
  const status = withBytes(encoder.encode(name + '\0'), (p) => wasm._fastblake_use_backend(p));
  if (status !== 0) {
    throw new Error(`fastblake: no backend "${name}" here (available: ${
        availableBackends().join(', ')})`);
  }
}

/** Bytes as lowercase hexadecimal. */
export function toHex(bytes) {
  let hex = '';
  for (const b of bytesOf(bytes, 'bytes')) hex += b.toString(16).padStart(2, '0');
  return hex;
}

let blake3Once;
let blake2Once;

/** BLAKE3 in progress: hash, keyed hash or key derivation, and extendable output. */
export class Blake3 {
  #state = new State(blake3States);

  /** The plain hash. */
  constructor() {
    wasm._fastblake_blake3_hasher_init(this.#state.pointer);
  }

  /** The keyed hash (a MAC or PRF) with a 32-byte key. */
  static keyed(key) {
    return new Blake3().#initialize(key, undefined);
  }

  /** Key derivation for a context string (or its bytes), fed the key material. */
  static deriveKey(context) {
    return new Blake3().#initialize(undefined, context);
  }

  // Starts afresh in the mode that key or context (or neither) names.
  #initialize(key, context) {
    const p = this.#state.pointer;
    if (key !== undefined) {
      const k = bytesOf(key, 'the key');
      if (k.length !== 32) throw new RangeError(`fastblake: a BLAKE3 key is 32 bytes, not ${k.length}`);
      withBytes(k, (b) => wasm._fastblake_blake3_hasher_init_keyed(p, b));
    } else if (context !== undefined) {
      const c = bytesOf(context, 'the context');
      withBytes(c, (b) => wasm._fastblake_blake3_hasher_init_derive_key_raw(p, b, c.length));
    } else {
      wasm._fastblake_blake3_hasher_init(p);
    }
    return this;
  }

  // The one-shot function's hasher, reused: a call then allocates nothing in the module.
  static {
    const shared = new Blake3();
    blake3Once = (data, length, key, context, seek) =>
      shared.#initialize(key, context).update(data).digest(length, { seek });
  }

  /** Absorbs data (a string as UTF-8, or bytes); returns this. */
  update(data) {
    absorb(wasm._fastblake_blake3_hasher_update, this.#state.pointer, bytesOf(data, 'data'));
    return this;
  }

  /** `length` bytes of output (32 by default) from byte `seek` of the extendable output (a
   * number or a BigInt). Updates may continue afterwards. */
  digest(length = 32, { seek = 0 } = {}) {
    lengthOf(length, 'the output length');
    let [low, high] = halvesOf(seek, 'seek');
    // Numbers stop at 2^53: only a BigInt seek can reach the end of the output.
    if (typeof seek === 'bigint' && seek + BigInt(length) > 1n << 64n) {
      throw new RangeError('fastblake: the output range passes 2^64 bytes');
    }
    const out = new Uint8Array(length);
    const buffer = scratch;
    for (let at = 0; at < length; at += pieceSize) {
      const n = Math.min(pieceSize, length - at);
      if (wasm._fastblake_js_blake3_finalize_seek(this.#state.pointer, low, high, buffer, n) !== 0) {
        throw new RangeError('fastblake: the output range passes 2^64 bytes');
      }
      out.set(wasm.HEAPU8.subarray(buffer, buffer + n), at);
      low += n;
      if (low >= 2 ** 32) {
        low -= 2 ** 32;
        high += 1;
      }
    }
    return out;
  }

  /** The digest as hexadecimal. */
  hexDigest(length = 32, options = {}) {
    return toHex(this.digest(length, options));
  }

  /** Bytes absorbed since creation or reset. */
  get count() {
    return wasm._fastblake_js_blake3_count(this.#state.pointer);
  }

  /** Forgets the input, keeping the mode and key; returns this. */
  reset() {
    wasm._fastblake_blake3_hasher_reset(this.#state.pointer);
    return this;
  }

  /** An independent copy of this hash in progress. */
  clone() {
    const copy = new Blake3();
    this.#state.copyTo(copy.#state);
    return copy;
  }

  /** Wipes the state (key material included) now; the hasher can no longer be used. Not
   * needed to free memory: the garbage collector reclaims an unused hasher's. */
  dispose() {
    this.#state.dispose();
  }
}

/** The BLAKE3 hash of data: 32 bytes, or options.length; options.key (32 bytes) for the keyed
 * hash, options.context for key derivation, options.seek for a later part of the output. */
export function blake3(data, { length = 32, key, context, seek = 0 } = {}) {
  if (key !== undefined && context !== undefined) {
    throw new TypeError('fastblake: a BLAKE3 hash takes a key or a context, not both');
  }
  return blake3Once(data, length, key, context, seek);
}

const blake2OptionNames = ['length', 'key', 'salt', 'personal', 'fanout', 'maxDepth', 'maxLeafLength',
                           'nodeOffset', 'nodeDepth', 'innerLength', 'lastNode'];

// The options a Blake2 keeps: each read once, byte arrays copied (a key wiped by the caller
// after construction stays what it was here).
function snapshotOf(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('fastblake: BLAKE2 options are an object');
  }
  const copy = {};
  for (const name of blake2OptionNames) {
    const value = options[name];
    if (value === undefined) continue;
    copy[name] = name === 'key' || name === 'salt' || name === 'personal'
        ? bytesOf(value, `the ${name === 'personal' ? 'personalisation' : name}`).slice()
        : value;
  }
  return copy;
}

const blake2Algorithms = { blake2b: 0, blake2s: 1, blake2bp: 2, blake2sp: 3, blake2xb: 4, blake2xs: 5 };

/** BLAKE2 in progress: any of BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp, BLAKE2Xb and BLAKE2Xs, with
 * every parameter of the parameter block. */
export class Blake2 {
  #state = new State(blake2States);
  #algorithm;
  #length;
  #options;

  /** options: length (the hash or output length; 0 or absent: the algorithm's default), key,
   * salt, personal, and the tree parameters fanout, maxDepth, maxLeafLength, nodeOffset,
   * nodeDepth, innerLength and lastNode. */
  constructor(algorithm = 'blake2b', options = {}) {
    if (!Object.hasOwn(blake2Algorithms, algorithm)) {
      throw new TypeError(`fastblake: unknown BLAKE2 algorithm "${algorithm}" (one of ${
          Object.keys(blake2Algorithms).join(', ')})`);
    }
    this.#algorithm = algorithm;
    // A copy: what the caller does to its options (or their arrays) later changes nothing
    // here; reset() and clone() use what the constructor saw.
    this.#options = snapshotOf(options);
    this.#init();
  }

  // The one-shot functions' hashers, one per algorithm, made when the module loads and reused
  // as blake3Once's is.
  static {
    const shared = new Map();
    for (const algorithm of Object.keys(blake2Algorithms)) shared.set(algorithm, new Blake2(algorithm));
    blake2Once = (algorithm, data, options) => {
      const h = shared.get(algorithm);
      h.#options = options;
      return h.#init().update(data).digest();
    };
  }

  #init() {
    const o = this.#options;
    const length = lengthOf(o.length ?? 0, 'the hash length');
    const key = bytesOf(o.key ?? new Uint8Array(0), 'the key');
    const salt = bytesOf(o.salt ?? new Uint8Array(0), 'the salt');
    const personal = bytesOf(o.personal ?? new Uint8Array(0), 'the personalisation');
    const treeNames = ['fanout', 'maxDepth', 'maxLeafLength', 'nodeOffset', 'nodeDepth', 'innerLength', 'lastNode'];
    const hasTree = treeNames.some((name) => o[name] !== undefined);
    let tree = null;
    if (hasTree) {
      const [offsetLow, offsetHigh] = halvesOf(o.nodeOffset ?? 0, 'nodeOffset');
      const word = (value, fallback, what) => {
        const v = value ?? fallback;
        if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
          throw new RangeError(`fastblake: ${what} must be an integer from 0 to 2^32 - 1`);
        }
        return v;
      };
      tree = new Uint32Array([
        word(o.fanout, 1, 'fanout'), word(o.maxDepth, 1, 'maxDepth'),
        word(o.maxLeafLength, 0, 'maxLeafLength'), offsetLow, offsetHigh,
        word(o.nodeDepth, 0, 'nodeDepth'), word(o.innerLength, 0, 'innerLength'),
        o.lastNode ? 1 : 0,
      ]);
    }
    // The key, salt, personalisation and tree parameters in one copy, each at its offset.
    const treeBytes = tree ? new Uint8Array(tree.buffer) : new Uint8Array(0);
    const all = new Uint8Array(treeBytes.length + key.length + salt.length + personal.length);
    all.set(treeBytes, 0);
    all.set(key, treeBytes.length);
    all.set(salt, treeBytes.length + key.length);
    all.set(personal, treeBytes.length + key.length + salt.length);
    const status = withBytes(all, (p) => {
      const at = (offset, n) => (n === 0 ? 0 : p + offset);
      return wasm._fastblake_js_blake2_init(
          this.#state.pointer, blake2Algorithms[this.#algorithm], length,
          at(treeBytes.length, key.length), key.length,
          at(treeBytes.length + key.length, salt.length), salt.length,
          at(treeBytes.length + key.length + salt.length, personal.length), personal.length,
          at(0, treeBytes.length));
    });
    if (status !== 0) {
      throw new RangeError(`fastblake: ${this.#algorithm} refuses these parameters (a length, ` +
                           'key, salt or personalisation too long, a tree parameter out of ' +
                           'range, or one that BLAKE2bp, BLAKE2sp or BLAKE2X fix)');
    }
    const defaults = { blake2b: 64, blake2s: 32, blake2bp: 64, blake2sp: 32, blake2xb: 64, blake2xs: 32 };
    this.#length = length === 0 ? defaults[this.#algorithm] : length;
    return this;
  }

  /** The algorithm's name, as given. */
  get algorithm() {
    return this.#algorithm;
  }

  /** The length of the digest, in bytes. */
  get length() {
    return this.#length;
  }

  /** Absorbs data; returns this. */
  update(data) {
    absorb(wasm._fastblake_blake2_update, this.#state.pointer, bytesOf(data, 'data'));
    return this;
  }

  /** The hash of everything absorbed so far; updates may continue. */
  digest() {
    return this.digestRange(0, this.#length);
  }

  /** Bytes [offset, offset + length) of the hash: any part of BLAKE2X's output by itself. */
  digestRange(offset, length) {
    lengthOf(offset, 'the offset');
    lengthOf(length, 'the length');
    if (offset + length > this.#length) {
      throw new RangeError(`fastblake: bytes ${offset} to ${offset + length} pass the ${
          this.#length}-byte hash`);
    }
    const out = new Uint8Array(length);
    const buffer = scratch;
    for (let at = 0; at < length; at += pieceSize) {
      const n = Math.min(pieceSize, length - at);
      const [low, high] = halvesOf(offset + at, 'the offset');
      if (wasm._fastblake_js_blake2_finalize_range(this.#state.pointer, low, high, buffer, n) !== 0) {
        throw new RangeError('fastblake: the range passes the end of the hash');
      }
      out.set(wasm.HEAPU8.subarray(buffer, buffer + n), at);
    }
    return out;
  }

  /** The digest as hexadecimal. */
  hexDigest() {
    return toHex(this.digest());
  }

  /** Starts again with the same parameters; returns this. */
  reset() {
    this.#init();
    return this;
  }

  /** An independent copy of this hash in progress, with the parameters this one was made with. */
  clone() {
    const copy = new Blake2(this.#algorithm, this.#options);
    this.#state.copyTo(copy.#state);
    return copy;
  }

  /** Wipes the state (key material included) now; the hasher can no longer be used. Not
   * needed to free memory: the garbage collector reclaims an unused hasher's. */
  dispose() {
    this.#state.dispose();
  }
}

function oneShot(algorithm) {
  return (data, options = {}) => blake2Once(algorithm, data, options);
}

/** One-shot BLAKE2: the hash of data, with the options of the Blake2 constructor. */
export const blake2b = oneShot('blake2b');
export const blake2s = oneShot('blake2s');
export const blake2bp = oneShot('blake2bp');
export const blake2sp = oneShot('blake2sp');
export const blake2xb = oneShot('blake2xb');
export const blake2xs = oneShot('blake2xs');
