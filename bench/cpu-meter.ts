// CPU time used by the service, by PostgreSQL and by the load generator over a phase (from /proc),
// a measure that stays meaningful when other work shares the machine (wall-clock rates do not).
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime (and, with `children`, the waited-for children's cutime + cstime) of a process, in ms. */
function processCpuMs(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    return ticks * TICK_MS;
  } catch {
    return 0; // the process is gone
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The PostgreSQL postmaster serving `pool` (the parent of a backend), when it runs on this machine. */
export async function findPostmaster(pool: pg.Pool): Promise<number | null> {
  try {
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ppid = parentOf(rows[0].pid);
    return ppid && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

/** CPU of the postmaster and every process it started (live children plus those already reaped), ms. */
function postgresCpuMs(postmaster: number): number {
  let total = processCpuMs(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid !== postmaster && parentOf(pid) === postmaster) total += processCpuMs(pid);
  }
  return total;
}

export interface CpuSample {
  serviceMs: number;
  postgresMs: number | null;
  benchMs: number;
}

/** Samples CPU of the service processes, the PostgreSQL server and this process. */
export class CpuMeter {
  constructor(
    private readonly servicePids: number[],
    private readonly postmaster: number | null,
  ) {}

  sample(): CpuSample {
    const own = process.cpuUsage();
    return {
      serviceMs: this.servicePids.reduce((s, pid) => s + processCpuMs(pid), 0),
      postgresMs: this.postmaster === null ? null : postgresCpuMs(this.postmaster),
      benchMs: (own.user + own.system) / 1000,
    };
  }

  /** CPU used since `before`, per unit of work (e.g. per order), in ms. */
  static per(before: CpuSample, after: CpuSample, units: number): CpuSample {
    const d = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round(((b - a) / units) * 100) / 100);
    return { serviceMs: d(before.serviceMs, after.serviceMs)!, postgresMs: d(before.postgresMs, after.postgresMs), benchMs: d(before.benchMs, after.benchMs)! };
  }
}
