// Builds the assistant page's browser script with esbuild once per process (in memory), served from our own origin.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

function entry(): string {
  const ts = fileURLToPath(new URL('./client/assistant-client.ts', import.meta.url));
  return existsSync(ts) ? ts : fileURLToPath(new URL('./client/assistant-client.js', import.meta.url));
}

let bundle: Promise<string> | null = null;

export function assistantBundle(): Promise<string> {
  bundle ??= build({ entryPoints: [entry()], bundle: true, format: 'esm', minify: true, write: false, target: 'es2022', platform: 'browser', legalComments: 'none' }).then(
    (r) => r.outputFiles[0].text,
  );
  return bundle;
}
