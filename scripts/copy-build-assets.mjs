// After `tsc -p tsconfig.build.json`: copies what the compiled service reads from disk beside the emitted JS
// (SQL migrations, the demo workspace, the password list, the built-in flows, the plain-JS layout thread), keeping src/'s layout under dist/.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const assets = ['src/db/migrations', 'src/config/demo-workspace.json', 'src/auth/data', 'src/notifications/templates', 'src/engine/flows/layout-worker.mjs', 'machines'];
for (const asset of assets) {
  const target = path.join(root, 'dist', asset);
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(root, asset), target, { recursive: true, filter: (src) => !src.endsWith('.ts') });
}
process.stdout.write(`copied ${assets.join(', ')} into dist/\n`);
