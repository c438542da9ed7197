import { describe, expect, it } from 'vitest';
import {
  cpuBusyBetween,
  descendants,
  parseCpuTimes,
  parseEnviron,
  parseStat,
  parseVmRssKb,
  splitNul,
} from './proc';

describe('/proc parsing', () => {
  it('reads pid, name, parent and utime + stime from a stat line, whatever the name holds', () => {
    const line =
      '3501 (workerd) S 3432 3417 3417 0 -1 4194560 120377 0 0 0 2950 311 0 0 20 0 9 0 12345 9952420352 83873 ' +
      '18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 17 1 0 0 0 0 0';
    expect(parseStat(line)).toEqual({ pid: 3501, comm: 'workerd', ppid: 3432, cpuTicks: 3261 });
    const odd = '42 (a) b (c)) R 7 42 42 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 0 0';
    expect(parseStat(odd)).toMatchObject({ pid: 42, comm: 'a) b (c)', ppid: 7, cpuTicks: 11 });
    expect(() => parseStat('garbage')).toThrow(/stat line/);
  });

  it('reads VmRSS in kB, 0 when the process has none', () => {
    expect(parseVmRssKb('Name:\tnode\nVmPeak:\t 100 kB\nVmRSS:\t   98092 kB\nRssAnon:\t 1 kB\n')).toBe(98092);
    expect(parseVmRssKb('Name:\tkworker\nState:\tI (idle)\n')).toBe(0);
  });

  it('splits NUL-separated command lines and environments', () => {
    expect(splitNul('node\0--import\0tsx\0serve.ts\0')).toEqual(['node', '--import', 'tsx', 'serve.ts']);
    expect(parseEnviron('A=1\0B=x=y\0EMPTY=\0junk\0')).toEqual({ A: '1', B: 'x=y', EMPTY: '' });
  });

  it('finds every process below a root, and nothing beside it', () => {
    const parents = new Map([
      [10, 1],
      [11, 10],
      [12, 10],
      [13, 12],
      [20, 1],
    ]);
    expect(descendants(10, parents).sort()).toEqual([10, 11, 12, 13]);
    expect(descendants(13, parents)).toEqual([13]);
  });

  it('reads each CPU’s busy share between two /proc/stat readings', () => {
    const before = parseCpuTimes(
      'cpu  300 0 100 1000 10 0 0 0 0 0\ncpu0 100 0 50 500 5 0 0 0 0 0\ncpu1 200 0 50 500 5 0 0 0 0 0\nintr 1 2\n',
    );
    expect(before.get('0')).toEqual({ busy: 150, total: 655 });
    const after = parseCpuTimes('cpu0 180 0 50 520 5 0 0 0 0 0\ncpu1 210 0 55 585 5 0 0 0 0 0\n');
    expect(cpuBusyBetween(before, after)).toEqual({ '0': 0.8, '1': 0.15 });
  });
});
