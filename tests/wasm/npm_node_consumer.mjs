// The npm package under Node.js, imported by its name from a project that installed the
// tarball: prints report() (npm_digests.mjs) for the cases in the file argv[2] names, as JSON.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fastblake from 'fastblake';
import { report } from './npm_digests.mjs';

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const packageJson = createRequire(import.meta.url)('fastblake/package.json');
console.log(JSON.stringify({ ...report(fastblake, cases), packageVersion: packageJson.version }));
