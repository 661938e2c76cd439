// Under `npm start`: if npm itself dies (SIGKILL, a closed terminal), the service drains and exits instead of running on orphaned.
/**
 * Calls `onOrphaned` once when the process's parent changes (it was re-parented to init or a
 * subreaper because npm went away). Only under npm (`npm_lifecycle_event` set): a service run
 * as `node dist/src/main.js` by a supervisor, or as PID 1 in a container, is not watched.
 * The check is a property read once a second on an unref'd timer.
 */
export function watchParent(onOrphaned: () => void, env: NodeJS.ProcessEnv = process.env, intervalMs = 1_000): () => void {
  if (!env.npm_lifecycle_event) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
