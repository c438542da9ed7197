import { describe, expect, it } from 'vitest';
import { commandDelta, othersActive, parseClientList, parseCommandStats } from './redis-stats';

const BEFORE = `# Commandstats
cmdstat_evalsha:calls=100,usec=6363,usec_per_call=63.63,rejected_calls=0,failed_calls=0
cmdstat_hincrby:calls=1000,usec=400,usec_per_call=0.40,rejected_calls=0,failed_calls=0
cmdstat_info:calls=4,usec=277,usec_per_call=69.25,rejected_calls=0,failed_calls=0
cmdstat_client|list:calls=1,usec=12,usec_per_call=12.00,rejected_calls=0,failed_calls=0
`;
const AFTER = `# Commandstats
cmdstat_evalsha:calls=300,usec=6363,usec_per_call=63.63,rejected_calls=0,failed_calls=0
cmdstat_eval:calls=1,usec=6363,usec_per_call=63.63,rejected_calls=0,failed_calls=0
cmdstat_hincrby:calls=2600,usec=400,usec_per_call=0.40,rejected_calls=0,failed_calls=0
cmdstat_hmget:calls=200,usec=400,usec_per_call=0.40,rejected_calls=0,failed_calls=0
cmdstat_info:calls=6,usec=277,usec_per_call=69.25,rejected_calls=0,failed_calls=0
cmdstat_client|list:calls=2,usec=12,usec_per_call=12.00,rejected_calls=0,failed_calls=0
`;

describe('Redis command counts', () => {
  it('parses calls per command, subcommands included', () => {
    expect(parseCommandStats(BEFORE)).toEqual(
      new Map([
        ['evalsha', 100],
        ['hincrby', 1000],
        ['info', 4],
        ['client|list', 1],
      ]),
    );
  });

  it('takes the difference, leaves out the bench’s own reads, and counts script calls apart', () => {
    expect(commandDelta(parseCommandStats(BEFORE), parseCommandStats(AFTER))).toEqual({
      total: 2001,
      evalsha: 200,
      scripts: 201,
      byCommand: { evalsha: 200, eval: 1, hincrby: 1600, hmget: 200 },
    });
  });

  it('finds clients of other databases that ran something during a window', () => {
    const list = parseClientList(
      [
        'id=136 addr=127.0.0.1:52936 laddr=127.0.0.1:6379 fd=8 name= age=238 idle=0 flags=N db=7 cmd=evalsha user=default',
        'id=140 addr=127.0.0.1:52940 laddr=127.0.0.1:6379 fd=9 name= age=500 idle=400 flags=N db=0 cmd=get user=default',
        'id=141 addr=127.0.0.1:52941 laddr=127.0.0.1:6379 fd=10 name= age=20 idle=0 flags=N db=8 cmd=evalsha user=default',
        'id=143 addr=127.0.0.1:54808 laddr=127.0.0.1:6379 fd=11 name= age=0 idle=0 flags=N db=0 cmd=client|list user=default',
        '',
      ].join('\n'),
    );
    expect(list[0]).toEqual({ id: 136, addr: '127.0.0.1:52936', db: 7, idle: 0, cmd: 'evalsha' });
    expect(othersActive(list, 8, 143, 6.5).map((c) => c.id)).toEqual([136]);
  });
});
