// A strict TypeScript program over the CommonJS entry's declarations (fastblake.d.cts): tsc
// checks it (npm_package_test.py typescript), then it runs.
import fastblake = require('fastblake');

declare const console: { log(...values: unknown[]): void };
declare const process: { exitCode?: number };

// Misuse the declarations refuse, never run.
export function refusedByTheDeclarations(): void {
  // @ts-expect-error: require('fastblake') gives load() only
  fastblake.blake3('abc');
  fastblake.load().then((fb) => {
    // @ts-expect-error: the module's functions keep their types (not any)
    fb.blake3(42);
  });
}

fastblake.load().then((fb) => {
  const digest: Uint8Array = fb.blake3('abc');
  const hex: string = fb.toHex(digest);
  if (hex !== '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85') {
    console.log(`consumer.cts: blake3('abc') is ${hex}`);
    process.exitCode = 1;
  } else {
    console.log('consumer.cts: load() gives the module, as declared');
  }
});
