// The Node.js runtime the service runs on: the start line naming it, and whether it is the supported LTS line.
/** The Node.js major version the service is built and tested on (package.json `engines`, Dockerfile, CI). */
export const SUPPORTED_NODE_MAJOR = 24;

/** `runtime: Node.js v24.21.0 (LTS Krypton)`, plus a warning when the major version is not the supported one. */
export function runtimeLine(version = process.version, release: { lts?: string | false } = process.release): { line: string; supported: boolean } {
  const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 0);
  const supported = major === SUPPORTED_NODE_MAJOR;
  const lts = release.lts ? ` (LTS ${release.lts})` : '';
  const line = `runtime: Node.js ${version}${lts}`;
  return supported
    ? { line, supported }
    : { line: `${line}: not the supported Node.js ${SUPPORTED_NODE_MAJOR} LTS (run through npm scripts, which use the pinned runtime, or install Node.js ${SUPPORTED_NODE_MAJOR})`, supported };
}
