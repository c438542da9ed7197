import { describe, expect, it } from 'vitest';
import { BRIDGE_COUNTS_PATH, BridgeTally } from './counts';
import { Budget } from './limits';

describe('bridge counts', () => {
  it('counts requests by endpoint, commands and statements from the budgets, and not its own reads', () => {
    const commands = new Budget('Redis commands', 100);
    const statements = new Budget('SQL statements', 100);
    const tally = new BridgeTally(commands, statements);
    tally.request('/pipeline', false);
    tally.request('/', false);
    tally.request('/sql', true);
    tally.request(BRIDGE_COUNTS_PATH, false);
    commands.tryTake(5);
    commands.give(5);
    statements.tryTake(2);
    expect(tally.snapshot()).toEqual({
      upstash_requests: 2,
      redis_commands: 5,
      sql_requests: 1,
      sql_statements: 2,
    });
  });
});
