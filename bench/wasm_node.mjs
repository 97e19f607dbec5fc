// Node.js timings of the JavaScript module (build/wasm/js/fastblake.mjs): its simd128 kernels
// against the same module's portable kernels, interleaved round by round in one process, with
// Node's own BLAKE2 (OpenSSL, native code) as a reference point. Prints a table and writes a
// JSON artifact.
// Usage: node bench/wasm_node.mjs [--module PATH] [--rounds N] [--out FILE.json]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const modulePath = option('--module', 'build/wasm/js/fastblake.mjs');
const rounds = Number(option('--rounds', 15));
const outPath = option('--out', null);
const fb = await import(pathToFileURL(path.resolve(modulePath)).href);

const sizes = [64, 1024, 16 << 10, 1 << 20, 16 << 20];
const input = crypto.randomBytes(Math.max(...sizes));

// Bytes hashed per timed sample: enough calls that one sample takes a few milliseconds.
const bytesPerSample = 32 << 20;

const subjects = [
  ['blake3', (data) => fb.blake3(data)],
  ['blake2s', (data) => fb.blake2s(data)],
  ['blake2b', (data) => fb.blake2b(data)],
  ['blake2sp', (data) => fb.blake2sp(data)],
  ['blake2bp', (data) => fb.blake2bp(data)],
];
const nodeReference = {
  blake2s: (data) => crypto.createHash('blake2s256').update(data).digest(),
  blake2b: (data) => crypto.createHash('blake2b512').update(data).digest(),
};

function sample(hash, data) {
  const calls = Math.max(1, Math.floor(bytesPerSample / data.length / 4));
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; ++i) hash(data);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return (calls * data.length) / seconds / 1e6;  // MB/s
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
for (const [name, hash] of subjects) {
  for (const size of sizes) {
    const data = input.subarray(0, size);
    const runs = { simd128: [], portable: [], node: [] };
    for (const b of ['simd128', 'portable']) {  // warm-up
      fb.useBackend(b);
      sample(hash, data);
    }
    for (let r = 0; r < rounds; ++r) {
      // Alternate which backend goes first, so neither always meets a warmer machine.
      const order = r % 2 ? ['portable', 'simd128'] : ['simd128', 'portable'];
      for (const b of order) {
        fb.useBackend(b);
        runs[b].push(sample(hash, data));
      }
      if (nodeReference[name]) runs.node.push(sample(nodeReference[name], data));
    }
    const row = {
      algorithm: name,
      bytes: size,
      simd128_mb_s: median(runs.simd128),
      portable_mb_s: median(runs.portable),
      node_openssl_mb_s: runs.node.length ? median(runs.node) : null,
    };
    row.speedup = row.simd128_mb_s / row.portable_mb_s;
    const ratios = runs.simd128.map((v, i) => v / runs.portable[i]);
    row.speedup_median_of_rounds = median(ratios);
    rows.push(row);
    console.log(`${name.padEnd(9)} ${String(size).padStart(9)} B  simd128 ${
        row.simd128_mb_s.toFixed(0).padStart(5)} MB/s  portable ${
        row.portable_mb_s.toFixed(0).padStart(5)} MB/s  x${row.speedup.toFixed(2)}${
        row.node_openssl_mb_s ? `  node/OpenSSL ${row.node_openssl_mb_s.toFixed(0)} MB/s` : ''}`);
  }
}
fb.useBackend('simd128');

const cpuModel = os.cpus()[0]?.model ?? 'unknown';
const flags = (() => {
  try {
    const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'));
    const wanted = ['sse2', 'ssse3', 'sse4_1', 'sse4_2', 'avx', 'avx2', 'avx512f', 'avx512bw', 'avx512vl'];
    return wanted.filter((f) => line.split(/\s+/).includes(f));
  } catch {
    return [];
  }
})();
const artifact = {
  tool: 'bench/wasm_node.mjs',
  date: new Date().toISOString(),
  machine: { cpu: cpuModel, cpus: os.cpus().length, simd_flags: flags, node: process.version, v8: process.versions.v8 },
  module: { version: fb.version, backends: fb.availableBackends() },
  method: `medians of ${rounds} interleaved rounds; one sample hashes ${bytesPerSample / 4 >> 20} MiB ` +
      'or more in repeated one-shot calls; portable is the same module after useBackend("portable")',
  rows,
};
if (outPath) {
  fs.writeFileSync(outPath, JSON.stringify(artifact, null, 2) + '\n');
  console.log(`wrote ${outPath}`);
}
