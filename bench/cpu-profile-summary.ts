// `node --import tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top]`: self time of a V8 CPU profile by area and by function.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: a package, a folder of this repository, Node itself, or the VM's own states. */
function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(src|bench)\/([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[2].replace(/\.ts$/, '')}`;
  if (url.startsWith('node:')) return url;
  return url;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: bench/cpu-profile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
const busy = total - idle;
const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, t] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  if (functionName === '(idle)') continue;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + t);
  const f = `${functionName || '(anonymous)'} ${a}:${lineNumber + 1}`;
  functions.set(f, (functions.get(f) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
const list = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, t]) => `${pct(t)}  ${k}`)
    .join('\n');
process.stdout.write(`busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled\n\nby area (self time)\n${list(areas)}\n\nby function (self time)\n${list(functions)}\n`);
