// Runs the real service as a child process exactly as README says (`npm start`), for start-path tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ChildService {
  proc: ChildProcess;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** Resolves with the base URL once `listening on <url>` is printed. */
  ready: Promise<string>;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  /** The pid of the node process running src/main.ts (not npm's). */
  servicePid(): number | null;
}

/** Starts `npm start` in its own process group with the given environment overrides. */
export function startChild(env: Record<string, string | undefined>, timeoutMs = 60_000): ChildService {
  const childEnv: Record<string, string> = {};
  // Vite/Vitest put BASE_URL, MODE, DEV, PROD and SSR into process.env; the service must not inherit them.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR'].includes(k) && !k.startsWith('VITEST')),
  );
  for (const [k, v] of Object.entries({ ...inherited, ...env })) if (v !== undefined) childEnv[k] = v;
  const proc = spawn('npm', ['start', '--silent'], { cwd: projectRoot, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (c) => (out += c.toString()));
  proc.stderr?.on('data', (c) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const ready = new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(tick);
        resolve(m[1]);
      } else if (proc.exitCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(tick);
        reject(new Error(`service did not start: ${out.slice(-2000)}`));
      }
    }, 100);
  });
  // A test that expects a failed start awaits `exited` only; keep the rejection handled.
  ready.catch(() => undefined);
  return {
    proc,
    output: () => out,
    ready,
    exited,
    servicePid: () => (proc.pid ? deepestServiceProcess(proc.pid) : null),
  };
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The node process that runs src/main.ts under npm -> sh -> tsx (the deepest one, not tsx's launcher). */
function deepestServiceProcess(root: number): number | null {
  let found: number | null = null;
  const walk = (pid: number) => {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return;
    }
    if (cmd.includes('src/main.ts')) found = pid;
    for (const c of childrenOf(pid)) walk(c);
  };
  walk(root);
  return found;
}

/** Kills the whole process group (npm, sh, node) with a signal; ignores a group already gone. */
export function killGroup(child: ChildService, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    if (child.proc.pid) process.kill(-child.proc.pid, signal);
  } catch {
    /* already gone */
  }
}
