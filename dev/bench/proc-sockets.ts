import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const ESTABLISHED = '01';

/** The inodes of the established TCP connections whose local port is `port` (IPv4 and IPv6). */
function establishedInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue; // no IPv6 on this machine
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (!local || fields[3] !== ESTABLISHED) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/**
 * How many established connections on local port `port` each process holds, read from
 * /proc (its descriptors' socket inodes against the kernel's TCP tables): which of several
 * processes serving one port accepted them.
 */
export function establishedBy(pids: readonly number[], port: number): Map<number, number> {
  const inodes = establishedInodes(port);
  const counts = new Map<number, number>();
  for (const pid of pids) {
    let count = 0;
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed meanwhile
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) count++;
    }
    counts.set(pid, count);
  }
  return counts;
}
