// Builds the dashboard's browser script with esbuild once per process (in memory) and serves it from our own origin.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The entry: the TypeScript source under tsx, the compiled .js under dist/. */
function entry(): string {
  const ts = fileURLToPath(new URL('./client/dashboard-client.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('./client/dashboard-client.js', import.meta.url));
}

let bundle: Promise<string> | null = null;

/** The minified ES module (built at start, so `npm start` and `npm test` need no build step of their own). */
export function dashboardBundle(): Promise<string> {
  bundle ??= build({ entryPoints: [entry()], bundle: true, format: 'esm', minify: true, write: false, target: 'es2022', platform: 'browser', legalComments: 'none' }).then(
    (r) => r.outputFiles[0].text,
  );
  return bundle;
}
