// Whether the embedded server's OS user can reach DATA_DIR: a pure check of each parent directory's search bit.
import path from 'node:path';

/** What the check needs of a directory: `fs.stat`'s mode and owner. */
export interface DirStat {
  mode: number;
  uid: number;
  gid: number;
}

/** The user and primary group the server runs as (spawned with setuid/setgid, so no supplementary groups). */
export interface OsUser {
  uid: number;
  gid: number;
}

/** A directory the server's user cannot search, with what was found there (for the message). */
export interface BlockedDirectory {
  dir: string;
  stat: DirStat;
}

/** Every directory above `dir` (absolute), from the root down; `dir` itself excluded. */
export function parentsOf(dir: string): string[] {
  const parents: string[] = [];
  for (let current = path.dirname(path.resolve(dir)); ; current = path.dirname(current)) {
    parents.unshift(current);
    if (current === path.dirname(current)) return parents;
  }
}

/**
 * Whether `user` may search (enter) a directory, by its mode bits as the kernel applies them: the
 * owner bits for the owner, else the group bits for the group, else the other bits. A null user
 * (not created yet: the library creates `postgres` at the first start) owns nothing.
 */
export function maySearch(stat: DirStat, user: OsUser | null): boolean {
  if (user && stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (user && stat.gid === user.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * Every directory of `dirs` (each a path the server must pass through) that `user` cannot search,
 * from the root down. Nothing is changed here: the caller decides (embedded-postgres.ts).
 */
export function unsearchable(dirs: readonly string[], user: OsUser | null, statOf: (dir: string) => DirStat): BlockedDirectory[] {
  return dirs.flatMap((dir) => {
    const stat = statOf(dir);
    return maySearch(stat, user) ? [] : [{ dir, stat }];
  });
}

/** The one-line start failure for a blocked directory of another user, naming it and the ways out. */
export function unreachableMessage(dataDir: string, blocked: BlockedDirectory, userName: string): string {
  const mode = (blocked.stat.mode & 0o777).toString(8).padStart(4, '0');
  return (
    `embedded PostgreSQL runs as user ${userName}, which cannot enter ${blocked.dir} ` +
    `(mode ${mode}, owner uid ${blocked.stat.uid}) on the way to DATA_DIR ${dataDir}; ` +
    `it belongs to another user, so the service leaves it alone: choose a DATA_DIR under directories it can traverse, grant it access to ${blocked.dir} yourself, ` +
    `or set DATABASE_URL to use a PostgreSQL server of your own`
  );
}
