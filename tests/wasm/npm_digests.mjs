// The digests of the npm package's tests (npm_package_test.py), computed by the package as
// installed: the same code under Node.js (npm_node_consumer.mjs) and in Chromium
// (npm_browser.html). Each case is hashed one-shot and again with the streaming class, the
// input fed in three uneven pieces; the driver checks both against b3sum, b2sum and hashlib.

// Input byte i is i % 251, as the official BLAKE3 vectors' inputs are.
function pattern(n) {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; ++i) bytes[i] = i % 251;
  return bytes;
}

function inputOf(c) {
  return c.text !== undefined ? c.text : pattern(c.pattern);
}

function inPieces(hasher, input) {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const cuts = [0, Math.floor(bytes.length / 3), Math.floor((bytes.length * 3) / 4), bytes.length];
  for (let i = 0; i + 1 < cuts.length; ++i) hasher.update(bytes.subarray(cuts[i], cuts[i + 1]));
  return hasher;
}

// [one-shot hex, streamed hex] for case c.
function digestOf(fastblake, c) {
  const input = inputOf(c);
  const { toHex } = fastblake;
  if (c.algorithm === 'blake3') {
    const options = { length: c.length };
    if (c.key !== undefined) options.key = c.key;
    if (c.context !== undefined) options.context = c.context;
    const hasher = c.key !== undefined ? fastblake.Blake3.keyed(c.key)
        : c.context !== undefined ? fastblake.Blake3.deriveKey(c.context)
        : new fastblake.Blake3();
    const streamed = inPieces(hasher, input).hexDigest(c.length);
    hasher.dispose();
    return [toHex(fastblake.blake3(input, options)), streamed];
  }
  const options = { length: c.length };
  if (c.key !== undefined) options.key = c.key;
  const hasher = inPieces(new fastblake.Blake2(c.algorithm, options), input);
  const streamed = hasher.hexDigest();
  hasher.dispose();
  return [toHex(fastblake[c.algorithm](input, options)), streamed];
}

/** What a run reports: the module's version and backend, and each case's two digests by id. */
export function report(fastblake, cases) {
  const digests = {};
  for (const c of cases) digests[c.id] = digestOf(fastblake, c);
  return { version: fastblake.version, backend: fastblake.backend(), digests };
}
