/** The one semaphore: the limit holds, waiters go in order, and a freed slot is handed over, never left open. */
import { Semaphore } from "../../provider/api/semaphore";

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("Semaphore", () => {
  test("never runs more than its limit, and runs everything", async () => {
    const sem = new Semaphore(3);
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 10 }, () =>
      sem.run(async () => {
        most = Math.max(most, ++running);
        await new Promise<void>((r) => gates.push(r));
        running--;
      }),
    );
    for (let done = 0; done < 10; done++) {
      while (gates.length === 0) await tick();
      expect(running).toBeLessThanOrEqual(3);
      gates.shift()!();
    }
    await Promise.all(tasks);
    expect(most).toBe(3);
    expect(sem.inUse).toBe(0);
  });

  test("a released slot goes to the first waiter: a caller arriving in between waits (the old Limiter let it in)", async () => {
    const sem = new Semaphore(1);
    await sem.acquire(); // A holds the only slot
    let bRuns = false;
    const b = sem.acquire().then(() => {
      bRuns = true;
    });
    sem.release(); // A is done: the slot passes to B, whose continuation has not run yet
    let cRuns = false;
    const c = sem.acquire().then(() => {
      cRuns = true;
    });
    await b;
    expect(bRuns).toBe(true);
    expect(cRuns).toBe(false);
    expect(sem.inUse).toBe(1);
    sem.release(); // B done: now C
    await c;
    expect(cRuns).toBe(true);
    sem.release();
    expect(sem.inUse).toBe(0);
  });

  test("waiters are served in arrival order", async () => {
    const sem = new Semaphore(1);
    const order: number[] = [];
    await sem.acquire();
    const all = [1, 2, 3].map((i) => sem.acquire().then(() => order.push(i)));
    for (let i = 0; i < 3; i++) {
      sem.release();
      await all[i];
    }
    expect(order).toEqual([1, 2, 3]);
    sem.release();
  });

  test("a failing task frees its slot", async () => {
    const sem = new Semaphore(1);
    await expect(sem.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(sem.run(async () => "next")).resolves.toBe("next");
    expect(sem.inUse).toBe(0);
  });

  test("a limit below 1 and a release without an acquire are refused", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
    expect(() => new Semaphore(2).release()).toThrow(/released more often/);
  });
});
