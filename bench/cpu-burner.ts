// A second process that keeps one core busy (a tight loop in a child node), for latency measured on a machine that is not quiet.
import { spawn, type ChildProcess } from 'node:child_process';

/** A running burner; `stop` ends it and waits for its exit. */
export interface CpuBurner {
  stop(): Promise<void>;
}

/** Starts a child process spinning on one core until stopped (at the default priority: it competes as a neighbour would). */
export function startCpuBurner(): CpuBurner {
  const child: ChildProcess = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
