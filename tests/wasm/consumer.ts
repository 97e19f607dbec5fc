// A strict TypeScript program over the npm package's declarations (fastblake.d.ts), which calls
// every export: tsc checks it (npm_package_test.py typescript), then it runs against the module.
// A declaration missing or wrong fails to compile; one the module lacks fails at run time.
import * as fastblake from 'fastblake';
import {
  availableBackends, backend, Blake2, blake2b, blake2bp, blake2s, blake2sp, blake2xb, blake2xs,
  Blake3, blake3, toHex, useBackend, version,
} from 'fastblake';
import type {
  Blake2Algorithm, Blake2Options, Blake3DigestOptions, Blake3Options, BytesLike, Offset,
} from 'fastblake';

// No @types/node offline: the two globals this uses.
declare const console: { log(...values: unknown[]): void };
declare const process: { exitCode?: number };

// Every export, once: a name the declarations lack, or one they have and this lacks, does not
// compile; the module's own names are compared with these at run time.
const everyExport: Record<keyof typeof fastblake, true> = {
  version: true, backend: true, availableBackends: true, useBackend: true, toHex: true,
  blake3: true, Blake3: true, blake2b: true, blake2s: true, blake2bp: true, blake2sp: true,
  blake2xb: true, blake2xs: true, Blake2: true,
};

const failures: string[] = [];
function expect(what: string, got: unknown, want: unknown): void {
  if (got !== want) failures.push(`${what}: got ${String(got)}, want ${String(want)}`);
}

const moduleNames = Object.keys(fastblake).sort().join(' ');
expect('the exports', moduleNames, Object.keys(everyExport).sort().join(' '));

const abc = new Uint8Array([97, 98, 99]);
const inputs: BytesLike[] = ['abc', abc, abc.buffer, new DataView(abc.buffer)];
for (const input of inputs) {
  expect('blake3', toHex(blake3(input)), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
}
const key: Uint8Array = new Uint8Array(32).fill(7);
const seek: Offset = 2n ** 40n;
const optionSets: Blake3Options[] = [{}, { length: 64 }, { key }, { context: 'app 2026 session', length: 16 },
                                     { seek, length: 8 }];
for (const options of optionSets) {
  const out: Uint8Array = blake3('data', options);
  expect('blake3 length', out.length, options.length ?? 32);
}

// An option that may be undefined is an absent one, as at run time.
const noKey = optionSets.length > 10 ? key : undefined;
expect('key undefined', toHex(blake3('m', { key: noKey })), toHex(blake3('m')));

const h: Blake3 = new Blake3();
h.update('ab').update(new Uint8Array([99]));
const count: number = h.count;
expect('count', count, 3);
const digestOptions: Blake3DigestOptions = { seek: 0 };
expect('Blake3', h.hexDigest(32, digestOptions), toHex(blake3('abc')));
const tail: Uint8Array = h.digest(16, { seek: 16n });
expect('seek', toHex(tail), toHex(blake3('abc', { length: 32 }).subarray(16)));
const copy: Blake3 = h.clone();
const same: Blake3 = h.reset().update('abc');
expect('reset', same.hexDigest(), copy.hexDigest());
copy.dispose();
h.dispose();
const keyed: Blake3 = Blake3.keyed(key).update('m');
expect('keyed', keyed.hexDigest(), toHex(blake3('m', { key })));
const derived: Blake3 = Blake3.deriveKey('app 2026 session').update('m');
expect('deriveKey', derived.hexDigest(), toHex(blake3('m', { context: 'app 2026 session' })));

const parameters: Blake2Options = { length: 32, key: 'k', salt: new Uint8Array(16), personal: 'p' };
expect('blake2b', toHex(blake2b('abc')), 'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1' +
                                         '7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923');
expect('blake2s', toHex(blake2s('abc')), '508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982');
expect('blake2b parameters', blake2b('abc', parameters).length, 32);
expect('blake2bp', blake2bp('abc').length, 64);
expect('blake2sp', blake2sp('abc').length, 32);
expect('blake2xb', blake2xb('abc', { length: 100 }).length, 100);
expect('blake2xs', blake2xs('abc', { length: 50 }).length, 50);

const algorithm: Blake2Algorithm = 'blake2b';
const tree = new Blake2(algorithm, { fanout: 2, maxDepth: 2, maxLeafLength: 4096, nodeOffset: 1n,
                                     nodeDepth: 0, innerLength: 64, lastNode: false });
const named: Blake2Algorithm = tree.algorithm;
const length: number = tree.length;
expect('algorithm', named, 'blake2b');
expect('length', length, 64);
const b: Blake2 = new Blake2().update('abc');
expect('Blake2', b.hexDigest(), toHex(blake2b('abc')));
expect('digestRange', toHex(b.digestRange(60, 4)), toHex(blake2b('abc')).slice(120));
const b2: Blake2 = b.clone();
b.reset().update(new Uint8Array([97, 98, 99]));
expect('Blake2 reset', toHex(b.digest()), b2.hexDigest());
b2.dispose();
b.dispose();
tree.dispose();

const names: string[] = availableBackends();
const active: string = backend();
expect('backend', active, names[0]);
useBackend('portable');
expect('useBackend', backend(), 'portable');
useBackend(names[0]);
const versionText: string = version;
expect('version', /^\d+\.\d+\.\d+$/.test(versionText), true);
try {
  useBackend('none');
  failures.push('useBackend: no error for an unknown backend');
} catch (error: unknown) {
  expect('useBackend error', error instanceof Error, true);
}

// Misuse the declarations refuse, never run.
export function refusedByTheDeclarations(): void {
  // @ts-expect-error: a key and a context both
  blake3('abc', { key, context: 'c' });
  // @ts-expect-error: no such algorithm
  new Blake2('blake2q');
  // @ts-expect-error: not bytes
  blake2b(42);
  // @ts-expect-error: count is read-only
  new Blake3().count = 1;
  // @ts-expect-error: lastNode is a boolean
  blake2s('abc', { lastNode: 1 });
  // @ts-expect-error: digest() of BLAKE2 takes no length (Blake2Options.length does)
  new Blake2().digest(32);
  // @ts-expect-error: an option that does not exist
  blake2b('abc', { personalisation: 'p' });
}

if (failures.length > 0) {
  console.log(failures.join('\n'));
  process.exitCode = 1;
} else {
  console.log(`consumer.ts: every export, as declared (fastblake ${version})`);
}
