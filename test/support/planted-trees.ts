// Test helper: small source trees written to temporary folders (the layer checks are tested on them), removed after.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Plants trees of `file -> text` under fresh temporary folders; `removeAll` deletes every one planted. */
export function plantedTrees(prefix: string): { plant(files: Record<string, string>): string; removeAll(): void } {
  const roots: string[] = [];
  return {
    plant(files) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      roots.push(root);
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      }
      return root;
    },
    removeAll() {
      for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
