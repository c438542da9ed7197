import { describe, expect, it } from 'vitest';
import { checkMachine, describeMachineChecks, parseMachineCheck } from './machine-check';

describe('machine check', () => {
  it('reads the MACHINE line, and says which figure is missing', () => {
    const output = 'warming up\nMACHINE syscall_ns=1203 task_us=22.4 task_after_gap_us=30.1 gap_ms=5\n';
    expect(parseMachineCheck(output)).toEqual({
      syscallNs: 1203,
      taskUs: 22.4,
      taskAfterGapUs: 30.1,
      gapMs: 5,
    });
    expect(() => parseMachineCheck('MACHINE syscall_ns=1 task_us=2 gap_ms=5')).toThrow(
      /without task_after_gap_us/,
    );
    expect(() => parseMachineCheck('Error: something')).toThrow(/printed no MACHINE line/);
  });

  it('measures this machine: a system call and the task, back to back and after an idle gap', async () => {
    const check = await checkMachine(null, 1.6, 30);
    expect(check.gapMs).toBe(2); // whole milliseconds, as Node's timers keep them
    expect(check.syscallNs).toBeGreaterThan(0);
    expect(check.taskUs).toBeGreaterThan(0);
    expect(check.taskAfterGapUs).toBeGreaterThan(0);
    expect(describeMachineChecks(check, null)).toMatch(
      /^syscall [\d,]+ ns; JS task [\d.]+ µs, 2 ms after the last [\d.]+ µs$/,
    );
  }, 60_000);
});
