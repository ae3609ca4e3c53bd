import { describe, expect, it } from 'vitest';
import { phaseResult, type ToolCounts, toolCounts } from './tool-phase';

const counts: ToolCounts = {
  requests: 5_000,
  duration_us: 2_000_000,
  bytes: 2 * 1048576,
  err_connect: 1,
  err_read: 2,
  err_write: 0,
  err_status: 3,
  err_timeout: 4,
  p50_us: 1_500,
  p90_us: 4_250,
  p99_us: 12_000,
};

describe('a load tool’s counts as a table row', () => {
  it('turns requests, bytes and microseconds into req/s, MB/s and milliseconds', () => {
    const row = phaseResult(counts, { server_peak_rss_kb: 150 * 1024 }, true);
    expect(row).toMatchObject({ rps: 2500, mbPerS: 1, p50Ms: 1.5, p90Ms: 4.25, p99Ms: 12, rssMb: 150 });
  });

  it('counts socket, status and timeout errors alike', () => {
    expect(phaseResult(counts, {}, true).errors).toBe(10);
  });

  it('leaves out PostgreSQL’s CPU when no postmaster was sampled', () => {
    const sampled = { cpu_pct: { server: 90, pg: 40, load: 30, other: 5 } };
    expect(phaseResult(counts, sampled, true).cpu.pg).toBe(40);
    expect(phaseResult(counts, sampled, false).cpu).toEqual({ server: 90, pg: null, load: 30, other: 5 });
  });

  it('reads the last WRK_JSON line of the output, or none', () => {
    const line = (requests: number) => `WRK_JSON ${JSON.stringify({ ...counts, requests })}`;
    expect(toolCounts(`Running 2s test\n${line(1)}\n${line(7)}\n`)?.requests).toBe(7);
    expect(toolCounts('unable to connect to 127.0.0.1:1 Connection refused\n')).toBeNull();
  });
});
