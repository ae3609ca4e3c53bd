import { describe, expect, it } from 'vitest';
import { requestSlots } from './request-slots';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('requestSlots', () => {
  it('lets `size` requests start at once and queues the rest in arrival order', async () => {
    const slots = requestSlots(2);
    const started: number[] = [];
    for (const n of [1, 2, 3, 4]) void slots.acquire().then(() => started.push(n));
    await tick();
    expect(started).toEqual([1, 2]);
    expect([slots.active, slots.waiting]).toEqual([2, 2]);
    slots.release();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    expect([slots.active, slots.waiting]).toEqual([2, 1]);
    slots.release();
    slots.release();
    await tick();
    expect(started).toEqual([1, 2, 3, 4]);
    expect([slots.active, slots.waiting]).toEqual([1, 0]);
    slots.release();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('never has more than `size` at work, however requests come and go', async () => {
    const slots = requestSlots(3);
    let atWork = 0;
    let most = 0;
    const work = async (ms: number) => {
      await slots.acquire();
      atWork += 1;
      most = Math.max(most, atWork);
      try {
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (ms % 3 === 0) throw new Error('a failed request');
      } finally {
        atWork -= 1;
        slots.release();
      }
    };
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => work(i % 5)));
    expect(results.filter((result) => result.status === 'rejected').length).toBeGreaterThan(0);
    expect(most).toBe(3);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('ignores a release with nothing at work', () => {
    const slots = requestSlots(1);
    slots.release();
    expect(slots.active).toBe(0);
  });

  it('turns a request away at once when `waitLimit` wait already, taking no slot', async () => {
    const slots = requestSlots(1, 2);
    const outcomes: boolean[] = [];
    for (let i = 0; i < 4; i++) void slots.acquire().then((started) => outcomes.push(started));
    await tick();
    // One at work, two waiting, the fourth refused.
    expect(outcomes).toEqual([true, false]);
    expect([slots.active, slots.waiting]).toEqual([1, 2]);
    slots.release();
    await tick();
    expect(outcomes).toEqual([true, false, true]);
    // A place in the queue is free again.
    void slots.acquire().then((started) => outcomes.push(started));
    slots.release();
    slots.release();
    await tick();
    expect(outcomes).toEqual([true, false, true, true, true]);
    slots.release();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('with no room to wait, starts only what a slot takes', async () => {
    const slots = requestSlots(2, 0);
    expect(await Promise.all([slots.acquire(), slots.acquire(), slots.acquire()])).toEqual([
      true,
      true,
      false,
    ]);
    expect([slots.active, slots.waiting]).toEqual([2, 0]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a size of %s', (size) => {
    expect(() => requestSlots(size)).toThrow(/positive integer/);
  });

  it.each([-1, 1.5, Number.NaN])('refuses a waiting limit of %s', (limit) => {
    expect(() => requestSlots(1, limit)).toThrow(/whole number/);
  });
});
