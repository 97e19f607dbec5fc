// The JavaScript module (js/fastblake.mjs) under Node.js: the official BLAKE3 vectors, the BLAKE2
// known answers, Node's own BLAKE2 (OpenSSL) on random inputs in random pieces, every backend
// the module has, and the errors. Run by ctest as `node --test`.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import test from 'node:test';
import { pathToFileURL } from 'node:url';

const fb = await import(pathToFileURL(process.env.FASTBLAKE_JS_MODULE).href);

const backends = fb.availableBackends();

// Input byte i is i % 251, as the official vectors' inputs are.
function pattern(n) {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; ++i) bytes[i] = i % 251;
  return bytes;
}

// A seeded generator (xorshift32), so that a failure can be run again.
const seed = Number(process.env.FASTBLAKE_TEST_SEED ?? (Date.now() >>> 0));
function randomSource(s) {
  let state = s >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return {
    below: (n) => next() % n,
    bytes: (n) => Uint8Array.from({ length: n }, () => next() & 0xff),
  };
}

// Feeds data to hasher in random pieces, empty ones included.
function updateInPieces(hasher, data, rng) {
  let at = 0;
  while (at < data.length) {
    const n = Math.min(data.length - at, rng.below(3) === 0 ? 0 : rng.below(3000));
    hasher.update(data.subarray(at, at + n));
    at += n;
  }
  return hasher;
}

function eachBackend(body) {
  for (const name of backends) {
    fb.useBackend(name);
    body(name);
  }
  fb.useBackend(backends[0]);
}

// The backends the build compiled in (FASTBLAKE_BACKENDS), best first.
const expectedBackends = process.env.FASTBLAKE_EXPECT_BACKENDS.split(',');

test('the module has the backends built in, and starts on the best', () => {
  assert.deepEqual(backends, expectedBackends);
  assert.equal(fb.backend(), backends[0]);
  assert.match(fb.version, /^\d+\.\d+\.\d+$/);
});

test('BLAKE3: the official test vectors, one-shot and streamed, on every backend', () => {
  const keyBytes = new TextEncoder().encode('whats the Elvish word for friend');
  const context = 'BLAKE3 2019-12-27 16:29:52 test vectors context';
  const lines = fs.readFileSync(process.env.FASTBLAKE_BLAKE3_VECTORS, 'utf8').split('\n');
  const cases = lines.filter((l) => /^\d/.test(l)).map((l) => l.split(' '));
  assert.ok(cases.length >= 35);
  const rng = randomSource(seed);
  eachBackend((name) => {
    for (const [length, hash, keyed, derived] of cases) {
      const input = pattern(Number(length));
      const where = `${name}, length ${length}`;
      assert.equal(fb.toHex(fb.blake3(input, { length: 131 })), hash, where);
      assert.equal(fb.toHex(fb.blake3(input, { length: 131, key: keyBytes })), keyed, where);
      assert.equal(fb.toHex(fb.blake3(input, { length: 131, context })), derived, where);
      assert.equal(fb.blake3(input).length, 32);
      assert.equal(fb.toHex(fb.blake3(input)), hash.slice(0, 64), where);
      const streamed = updateInPieces(new fb.Blake3(), input, rng);
      assert.equal(streamed.count, input.length);
      assert.equal(streamed.hexDigest(131), hash, where);
      // Any part of the output by itself.
      const seek = rng.below(131);
      assert.equal(fb.toHex(streamed.digest(131 - seek, { seek })), hash.slice(2 * seek), where);
      streamed.dispose();
      const k = updateInPieces(fb.Blake3.keyed(keyBytes), input, rng);
      assert.equal(k.hexDigest(131), keyed, where);
      k.dispose();
    }
  });
});

test('BLAKE3: large inputs across the module\'s input pieces, clone and reset', () => {
  const rng = randomSource(seed + 1);
  const data = rng.bytes((3 << 20) + 1029);
  eachBackend((name) => {
    const whole = fb.blake3(data);
    const h = new fb.Blake3();
    h.update(data.subarray(0, 1 << 20));
    const fork = h.clone();
    h.update(data.subarray(1 << 20));
    assert.deepEqual(h.digest(), whole, name);
    fork.update(data.subarray(1 << 20));
    assert.deepEqual(fork.digest(), whole, name);
    h.reset().update(data.buffer);  // an ArrayBuffer
    assert.deepEqual(h.digest(), whole, name);
    h.dispose();
    fork.dispose();
  });
  // Backends agree with each other on random lengths.
  for (let i = 0; i < 40; ++i) {
    const n = rng.below(70000);
    const input = data.subarray(0, n);
    const answers = backends.map((name) => {
      fb.useBackend(name);
      return fb.toHex(fb.blake3(input, { length: 100 }));
    });
    assert.equal(new Set(answers).size, 1, `length ${n}`);
  }
  fb.useBackend(backends[0]);
});

test('BLAKE3: output far along the extendable output, and its end at 2^64', () => {
  const h = new fb.Blake3().update('abc');
  const long = h.digest(3000);
  assert.deepEqual(h.digest(1000, { seek: 2000 }), long.subarray(2000));
  assert.deepEqual(h.digest(64, { seek: 2n ** 64n - 64n }).length, 64);
  assert.throws(() => h.digest(65, { seek: 2n ** 64n - 64n }), RangeError);
  assert.throws(() => h.digest(1, { seek: 2n ** 64n }), RangeError);
  assert.throws(() => h.digest(1, { seek: -1 }), RangeError);
  assert.throws(() => h.digest(1, { seek: -1n }), RangeError);
  assert.deepEqual(h.digest(5, { seek: 2 ** 40 }), h.digest(5, { seek: 2n ** 40n }));
  assert.throws(() => h.digest(-1), TypeError);
  assert.throws(() => h.digest(1, { seek: 0.5 }), TypeError);
  // Output longer than the module's output buffer.
  const big = h.digest((1 << 20) + 77);
  assert.deepEqual(big.subarray(0, 3000), long);
  assert.deepEqual(h.digest(77, { seek: 1 << 20 }), big.subarray(1 << 20));
  h.dispose();
});

test('BLAKE3: strings hash as their UTF-8 bytes; derive-key contexts as strings or bytes', () => {
  const text = 'grüße, 世界 🙂';
  assert.deepEqual(fb.blake3(text), fb.blake3(new TextEncoder().encode(text)));
  assert.deepEqual(fb.blake3('x', { context: 'ctx' }),
                   fb.blake3('x', { context: new TextEncoder().encode('ctx') }));
  assert.deepEqual(fb.blake3(new Uint16Array([0x0201, 0x0403])), fb.blake3(new Uint8Array([1, 2, 3, 4])));
});

test('BLAKE2: the known answers of every algorithm, keyed and not, on every backend', () => {
  const lines = fs.readFileSync(process.env.FASTBLAKE_BLAKE2_KAT, 'utf8').split('\n');
  const cases = lines.filter((l) => /^(b|s|bp|sp) /.test(l)).map((l) => l.split(' '));
  assert.equal(cases.length, 2048);
  const rng = randomSource(seed + 2);
  eachBackend((name) => {
    for (const [algorithm, keyed, length, expected] of cases) {
      const maxKey = algorithm.startsWith('b') ? 64 : 32;
      const options = keyed === '1' ? { key: Uint8Array.from({ length: maxKey }, (_, i) => i) } : {};
      const input = Uint8Array.from({ length: Number(length) }, (_, i) => i);
      const where = `${name}, blake2${algorithm}, keyed ${keyed}, length ${length}`;
      assert.equal(fb.toHex(fb[`blake2${algorithm}`](input, options)), expected, where);
      if (Number(length) % 37 === 0) {
        const h = updateInPieces(new fb.Blake2(`blake2${algorithm}`, options), input, rng);
        assert.equal(h.hexDigest(), expected, where);
        h.dispose();
      }
    }
  });
});

test('BLAKE2b and BLAKE2s against Node\'s own (OpenSSL), random inputs in random pieces', () => {
  const rng = randomSource(seed + 3);
  eachBackend((name) => {
    for (let i = 0; i < 60; ++i) {
      const input = rng.bytes(i < 50 ? rng.below(5000) : rng.below(3 << 20));
      for (const [ours, theirs] of [['blake2b', 'blake2b512'], ['blake2s', 'blake2s256']]) {
        const expected = crypto.createHash(theirs).update(input).digest('hex');
        const where = `${name}, ${ours}, ${input.length} bytes, seed ${seed}`;
        assert.equal(fb.toHex(fb[ours](input)), expected, where);
        const h = updateInPieces(new fb.Blake2(ours), input, rng);
        assert.equal(h.hexDigest(), expected, where);
        h.dispose();
      }
    }
  });
});

test('BLAKE2: parameters change the hash, and BLAKE2X gives any range of its output', () => {
  const base = fb.toHex(fb.blake2b('abc', { length: 32 }));
  const variants = [
    { length: 32, salt: 'saltsalt' }, { length: 32, personal: 'me' },
    { length: 32, key: 'k' }, { length: 32, fanout: 2 }, { length: 32, nodeOffset: 2n ** 40n },
    { length: 32, nodeDepth: 1 }, { length: 32, lastNode: true }, { length: 32, innerLength: 16 },
  ];
  const seen = new Set([base]);
  for (const v of variants) seen.add(fb.toHex(fb.blake2b('abc', v)));
  assert.equal(seen.size, variants.length + 1);
  // A Blake2 with the defaults stated is the plain hash.
  assert.equal(fb.toHex(fb.blake2b('abc', { length: 32, fanout: 1, maxDepth: 1 })), base);
  const x = new fb.Blake2('blake2xb', { length: 5000 }).update('abc');
  const whole = x.digest();
  assert.equal(whole.length, 5000);
  assert.deepEqual(x.digestRange(4000, 1000), whole.subarray(4000));
  assert.throws(() => x.digestRange(4001, 1000), RangeError);
  x.dispose();
  assert.equal(fb.blake2xs('abc', { length: 65534 }).length, 65534);
});

test('errors: a clear exception, and the module goes on working', () => {
  assert.throws(() => fb.blake3('x', { key: new Uint8Array(31) }), /32 bytes, not 31/);
  assert.throws(() => fb.blake3('x', { key: new Uint8Array(32), context: 'c' }), TypeError);
  assert.throws(() => fb.blake3(42), TypeError);
  assert.throws(() => fb.blake3(null), TypeError);
  assert.throws(() => fb.blake2b('x', { key: new Uint8Array(65) }), RangeError);
  assert.throws(() => fb.blake2s('x', { length: 33 }), RangeError);
  assert.throws(() => fb.blake2s('x', { salt: new Uint8Array(9) }), RangeError);
  assert.throws(() => fb.blake2bp('x', { fanout: 2 }), RangeError);
  assert.throws(() => fb.blake2b('x', { fanout: 256 }), RangeError);
  assert.throws(() => fb.blake2b('x', { nodeDepth: -1 }), RangeError);
  assert.throws(() => new fb.Blake2('blake2q'), TypeError);
  assert.throws(() => fb.useBackend('avx2'), /no backend "avx2" here/);
  assert.throws(() => fb.useBackend(3), TypeError);
  const h = new fb.Blake3();
  h.dispose();
  h.dispose();  // twice is harmless
  assert.throws(() => h.update('x'), /disposed/);
  assert.throws(() => h.digest(), /disposed/);
  assert.equal(fb.backend(), backends[0]);
  assert.equal(fb.toHex(fb.blake3('')), 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');
});
