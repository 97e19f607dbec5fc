// TypeScript declarations of fastblake.cjs, the CommonJS entry: require('fastblake') gives
// load() only (fastblake.d.ts declares the module it resolves to).

/**
 * The module fastblake.mjs (blake3, Blake3, blake2b, Blake2...), loaded on the first call;
 * later calls give the same promise.
 */
// A type, not a require(): TypeScript before 5.3 has no way to say so (resolution-mode) and
// reports TS1479 here, though the type resolves.
// @ts-ignore
export declare function load(): Promise<typeof import('./fastblake.js')>;
