// Demo mode: a workspace password generated once and kept in DATA_DIR (contract section 1).
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';

export interface WorkspacePassword {
  value: string | null;
  /** True when this start generated it (it is printed once with the sign-in URL). */
  generated: boolean;
  file: string | null;
}

/**
 * WORKSPACE_PASSWORD wins. Otherwise, when nobody is in the team, one is generated once
 * and kept in `DATA_DIR/workspace-password` (mode 0600); a kept one is reused.
 */
export async function resolveWorkspacePassword(
  fromEnv: string | undefined,
  dataDir: string,
  teamIsEmpty: boolean,
): Promise<WorkspacePassword> {
  if (fromEnv) return { value: fromEnv, generated: false, file: null };
  const file = path.join(dataDir, 'workspace-password');
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false, file };
  if (!teamIsEmpty) return { value: null, generated: false, file: null };
  const value = randomBytes(18).toString('base64url');
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, value + '\n', { mode: 0o600 });
  return { value, generated: true, file };
}
