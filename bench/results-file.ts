// Writes a bench run to bench/results/<date>.json (machine, options, every scenario's numbers).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './bench-options.js';
import type { ScenarioResult } from './bench-result.js';
import { projectRoot } from './service-process.js';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** Writes the file and returns its path (relative to the project). */
export function writeResults(dir: string, run: { command: string; startedAt: Date; machine: MachineInfo; loadAfter: number[]; options: BenchOptions; stack: string; results: ScenarioResult[] }): string {
  const abs = path.resolve(projectRoot, dir);
  mkdirSync(abs, { recursive: true });
  const stamp = run.startedAt.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
  const file = path.join(abs, `${stamp}.json`);
  writeFileSync(file, `${JSON.stringify({ ...run, startedAt: run.startedAt.toISOString() }, null, 2)}\n`);
  return path.relative(projectRoot, file);
}
