// Security review L4: start-up never loosens DATA_DIR's parents; it names the one the embedded server's user cannot enter.
import { describe, expect, it } from 'vitest';
import { maySearch, parentsOf, unreachableMessage, unsearchable, type DirStat } from '../../../src/db/data-dir-access.js';

const postgres = { uid: 101, gid: 104 };
const dir = (mode: number, uid = 0, gid = 0): DirStat => ({ mode: 0o40000 | mode, uid, gid });

describe('the directories above DATA_DIR', () => {
  it('parentsOf lists every parent from the root down, DATA_DIR itself excluded', () => {
    expect(parentsOf('/srv/orders/data')).toEqual(['/', '/srv', '/srv/orders']);
    expect(parentsOf('/data')).toEqual(['/']);
  });
});

describe('search permission by mode bits, as the kernel applies them', () => {
  it('others need o+x: 0755 and 0711 pass, 0700 and 0750 block', () => {
    expect(maySearch(dir(0o755), postgres)).toBe(true);
    expect(maySearch(dir(0o711), postgres)).toBe(true);
    expect(maySearch(dir(0o700), postgres)).toBe(false);
    expect(maySearch(dir(0o750), postgres)).toBe(false);
  });

  it('the owner bits decide for the owner and the group bits for the group, even when others may', () => {
    expect(maySearch(dir(0o700, 101), postgres)).toBe(true);
    expect(maySearch(dir(0o071, 101), postgres)).toBe(false);
    expect(maySearch(dir(0o710, 0, 104), postgres)).toBe(true);
    expect(maySearch(dir(0o701, 0, 104), postgres)).toBe(false);
  });

  it('a user not created yet owns nothing: only the other bits count', () => {
    expect(maySearch(dir(0o700, 101), null)).toBe(false);
    expect(maySearch(dir(0o701, 101), null)).toBe(true);
  });
});

describe('the blocking parents are reported, and nothing is changed by the check', () => {
  it('finds the mode-700 parent of DATA_DIR (the review probe) and reads each directory only', () => {
    const modes: Record<string, DirStat> = { '/': dir(0o755), '/srv': dir(0o755), '/srv/private': dir(0o700), '/srv/private/app': dir(0o755) };
    const read: string[] = [];
    const blocked = unsearchable(parentsOf('/srv/private/app/data'), postgres, (d) => {
      read.push(d);
      return modes[d];
    });
    expect(blocked).toEqual([{ dir: '/srv/private', stat: modes['/srv/private'] }]);
    expect(read).toEqual(['/', '/srv', '/srv/private', '/srv/private/app']);
    expect(modes['/srv/private'].mode & 0o777).toBe(0o700);
  });

  it('none when every parent is traversable', () => {
    expect(unsearchable(parentsOf('/tmp/x/data'), postgres, (d) => (d === '/tmp' ? dir(0o1777) : dir(0o755)))).toEqual([]);
  });

  it('the failure is one line naming the directory, its mode and the ways out', () => {
    const message = unreachableMessage('/srv/private/app/data', { dir: '/srv/private', stat: dir(0o700) }, 'postgres');
    expect(message).not.toContain('\n');
    expect(message).toContain('/srv/private (mode 0700');
    expect(message).toContain('user postgres');
    expect(message).toContain('DATA_DIR');
    expect(message).toContain('DATABASE_URL');
  });
});
