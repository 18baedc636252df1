import { describe, expect, it } from "vitest"
import { AdmissionQueue, Cancelled, GeoPool, QueueFull, SOJOURN_INTERVAL_MS } from "../dist/index.js"
import { makeStore } from "./storeFixture.js"

/** Settles every promise; each one's outcome and when it settled (ms after `t0`). */
const outcomes = <T>(ps: ReadonlyArray<Promise<T>>, t0: number) =>
  Promise.all(
    ps.map((p) =>
      p.then(
        () => ({ ok: true as const, error: undefined as unknown, at: performance.now() - t0 }),
        (error: unknown) => ({ ok: false as const, error, at: performance.now() - t0 })
      )
    )
  )

describe("GeoPool's admission queue (maxWaitMs), over real worker threads", () => {
  it("refuses at once the tasks that would wait longer than maxWaitMs; a count-only pool queues them all", async () => {
    const store = await makeStore(50)
    const timed = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 256, maxWaitMs: 100, testTasks: true })
    const counted = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 256, testTasks: true })
    try {
      // The queue learns how long a task takes.
      for (let k = 0; k < 3; k++) await timed.run({ _tag: "Busy", ms: 25 })
      // 40 tasks of 25 ms: a second of work for one worker.
      const t0 = performance.now()
      const results = await outcomes(Array.from({ length: 40 }, () => timed.run({ _tag: "Busy", ms: 25 })), t0)
      const refused = results.filter((r) => !r.ok)
      const served = results.filter((r) => r.ok)
      expect(refused.every((r) => r.error instanceof QueueFull)).toBe(true)
      expect(refused.length).toBeGreaterThanOrEqual(25)
      // Refused as they arrived, not after waiting.
      expect(Math.max(...refused.map((r) => r.at))).toBeLessThan(30)
      // What was admitted did not wait much longer than the bound (25 ms of work each on top).
      expect(Math.max(...served.map((r) => r.at))).toBeLessThan(400)
      // Every refusal counted once, by the time bound.
      expect(timed.refusals).toEqual({ queueTime: refused.length, queueCount: 0, clientGone: 0 })

      const t1 = performance.now()
      const all = await outcomes(Array.from({ length: 40 }, () => counted.run({ _tag: "Busy", ms: 25 })), t1)
      expect(all.every((r) => r.ok)).toBe(true)
      expect(Math.max(...all.map((r) => r.at))).toBeGreaterThan(900)
      expect(counted.refusals).toEqual({ queueTime: 0, queueCount: 0, clientGone: 0 })
    } finally {
      await Promise.all([timed.close(), counted.close()])
      store.cleanup()
    }
  })

  it("gives a key that sends little its share while another floods: the flooder's newest tasks make room", async () => {
    const store = await makeStore(50)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 256, maxWaitMs: 200, testTasks: true })
    try {
      for (let k = 0; k < 3; k++) await pool.run({ _tag: "Busy", ms: 20 })
      const t0 = performance.now()
      const flood = Array.from({ length: 40 }, () => pool.run({ _tag: "Busy", ms: 20 }, { key: "flood" }))
      const calm = Array.from({ length: 3 }, () => pool.run({ _tag: "Busy", ms: 20 }, { key: "calm" }))
      const [floodResults, calmResults] = await Promise.all([outcomes(flood, t0), outcomes(calm, t0)])
      // The queue was full by time when the calm key came, yet all its tasks ran...
      expect(floodResults.some((r) => !r.ok)).toBe(true)
      expect(calmResults.every((r) => r.ok)).toBe(true)
      expect(pool.admission!.refused.pushedOut).toBe(3)
      // A push-out is one refusal (the flooder's), not two.
      const { arrival, pushedOut, shed } = pool.admission!.refused
      expect(pool.refusals.queueTime).toBe(arrival + pushedOut + shed)
      // ... served round-robin with the flood's, not behind all of it: the last calm task ends
      // within its first few turns, well before the flood's last admitted task.
      const calmLast = Math.max(...calmResults.map((r) => r.at))
      const floodLast = Math.max(...floodResults.filter((r) => r.ok).map((r) => r.at))
      expect(calmLast).toBeLessThan(floodLast)
      expect(calmLast).toBeLessThan(8 * 20 + 100)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("refuses at the door once the oldest waiting task's wait has stayed over maxWaitMs for SOJOURN_INTERVAL_MS, whatever the estimate says", async () => {
    expect(SOJOURN_INTERVAL_MS).toBe(100)
    let clock = 0
    const queue = new AdmissionQueue({ slots: 1, workers: 1, maxQueue: 100, maxWaitMs: 100, now: () => clock })
    let finish: () => void = () => {}
    const running = queue.submit("k", () => new Promise<void>((resolve) => (finish = resolve)))
    // No task has ended yet: the estimated wait is 0, and two more are queued.
    const waiting = [queue.submit("k", async () => "b"), queue.submit("k", async () => "c")]
    expect([queue.estimatedWaitMs, queue.size, queue.oldestWaitMs]).toEqual([0, 2, 0])
    // Over the bound since 100, for 50 ms: a pause of this thread, not yet an overload.
    clock = 150
    expect(queue.oldestWaitMs).toBe(150)
    expect(queue.admits("k")).toBe(true)
    waiting.push(queue.submit("k", async () => "d"))
    expect(queue.size).toBe(3)
    // Over it for 100 ms: refused at once, not queued (a queued task would stay pending here).
    clock = 200
    const late = queue.submit("k", async () => "e").then(
      () => "admitted",
      (e: unknown) => e
    )
    expect(await Promise.race([late, new Promise((r) => setTimeout(() => r("still waiting"), 50))])).toBeInstanceOf(QueueFull)
    expect(queue.refused.arrival).toBe(1)
    expect(queue.refusedFor.queueTime).toBe(1)
    expect(queue.admits("k")).toBe(false)
    // Once the queue has drained, arrivals are admitted again.
    clock = 210
    finish()
    await running
    expect(await Promise.all(waiting)).toEqual(["b", "c", "d"])
    expect([queue.size, queue.oldestWaitMs, queue.admits("k")]).toEqual([0, 0, true])
    expect(await queue.submit("k", async () => "f")).toBe("f")
  })

  it("counts a key's started tasks with its waiting ones: a flood with one task left waiting makes room for a calm key's", async () => {
    let service = 1
    const queue = new AdmissionQueue({ slots: 2, workers: 1, maxQueue: 100, maxWaitMs: 200, serviceMs: () => service, now: () => 0 })
    const finishes: Array<() => void> = []
    const blocker = () => new Promise<string>((resolve) => finishes.push(() => resolve("flood")))
    const flood = [queue.submit("flood", blocker), queue.submit("flood", blocker), queue.submit("flood", blocker)].map((p) =>
      p.then(
        (v) => v,
        (e: unknown) => e
      )
    )
    expect([queue.inFlight, queue.size]).toEqual([2, 1])
    // Searches now take 300 ms: one more task's wait is over the bound, whoever sends it.
    service = 300
    expect(queue.admits("flood")).toBe(false)
    // The flood has one task waiting, as many as the calm key would have; with its two started it has more.
    expect(queue.admits("calm")).toBe(true)
    const calm = queue.submit("calm", async () => "calm")
    expect(await flood[2]).toBeInstanceOf(QueueFull)
    expect(queue.refused).toEqual({ shed: 0, arrival: 0, pushedOut: 1, cancelled: 0 })
    // The calm key's second search has no flood task waiting to take the place of: refused.
    await expect(queue.submit("calm", async () => "calm")).rejects.toBeInstanceOf(QueueFull)
    finishes.shift()!()
    expect(await calm).toBe("calm")
    finishes.shift()!()
    expect(await Promise.all(flood.slice(0, 2))).toEqual(["flood", "flood"])
  })

  it("starts the sojourn's interval afresh when the task waiting longest is under the bound again", async () => {
    let clock = 0
    // The workers' tasks take 1 ms: the estimate never refuses here, only the sojourn.
    const queue = new AdmissionQueue({ slots: 1, workers: 1, maxQueue: 100, maxWaitMs: 100, serviceMs: () => 1, now: () => clock })
    const finishes: Array<() => void> = []
    const blocker = () => new Promise<string>((resolve) => finishes.push(() => resolve("done")))
    const first = queue.submit("k", blocker)
    const a = queue.submit("k", blocker)
    clock = 120
    const b = queue.submit("other", blocker)
    // a has waited 150 ms (over the bound since 100), b 30.
    clock = 150
    expect(queue.admits("k")).toBe(true)
    // a starts: the task waiting longest is now b, under the bound, and the spell over it ends.
    finishes.shift()!()
    await first
    expect([queue.size, queue.oldestWaitMs]).toEqual([1, 30])
    // b passes the bound at 220; at 260 it has been over it for 40 ms only, where the spell begun
    // by a would have lasted 160.
    clock = 260
    expect(queue.admits("k")).toBe(true)
    clock = 320
    expect(queue.admits("k")).toBe(false)
    finishes.shift()!()
    await a
    finishes.shift()!()
    await b
    expect(queue.admits("k")).toBe(true)
  })

  it("starts every task it admitted at its turn, however long it waited: refusals are decided at the door only", async () => {
    let clock = 0
    const queue = new AdmissionQueue({ slots: 1, workers: 1, maxQueue: 100, maxWaitMs: 100, now: () => clock })
    let finish: () => void = () => {}
    const running = queue.submit("k", () => new Promise<void>((resolve) => (finish = resolve)))
    const waiting = [queue.submit("k", async () => "b"), queue.submit("other", async () => "c")]
    // The running task takes ten times the bound: the two admitted have waited that long at their turn.
    clock = 1_000
    finish()
    await running
    expect(await Promise.all(waiting)).toEqual(["b", "c"])
    expect(queue.refused).toEqual({ shed: 0, arrival: 0, pushedOut: 0, cancelled: 0 })
    expect(queue.refusedFor).toEqual({ queueTime: 0, queueCount: 0, clientGone: 0 })
  })

  it("starts the sojourn's interval afresh when the task waiting longest leaves the queue because its client has gone", async () => {
    let clock = 0
    const queue = new AdmissionQueue({ slots: 1, workers: 1, maxQueue: 100, maxWaitMs: 100, serviceMs: () => 1, now: () => clock })
    void queue.submit("k", () => new Promise<void>(() => {}))
    const gone = new AbortController()
    const a = queue.submit("k", async () => "a", gone.signal)
    clock = 120
    void queue.submit("other", async () => "b")
    clock = 150
    // a has been over the bound for 50 ms; its client leaves, and b (30 ms) is the oldest.
    expect(queue.admits("k")).toBe(true)
    gone.abort()
    await expect(a).rejects.toBeInstanceOf(Cancelled)
    // b has been over the bound since 220: 40 ms at 260, not the 160 of a spell begun by a.
    clock = 260
    expect(queue.admits("k")).toBe(true)
    clock = 320
    expect(queue.admits("k")).toBe(false)
  })

  it("starts more tasks than its slots when the workers' tasks are short: aheadMs of work per worker, up to maxSlots", async () => {
    let service: number | undefined = 2
    const queue = new AdmissionQueue({ slots: 2, workers: 2, aheadMs: 10, maxSlots: 9, maxQueue: 100, maxWaitMs: 1_000, serviceMs: () => service })
    // 10 ms ahead of each of 2 workers at 2 ms a task: 10 tasks, at most 9.
    expect(queue.slotsNow()).toBe(9)
    const never = () => new Promise<void>(() => {})
    for (let k = 0; k < 12; k++) void queue.submit("k", never)
    expect([queue.inFlight, queue.size]).toEqual([9, 3])
    // Long tasks, or none measured yet: `slots`.
    service = 30
    expect(queue.slotsNow()).toBe(2)
    service = undefined
    expect(queue.slotsNow()).toBe(2)
    expect(new AdmissionQueue({ slots: 3, workers: 1, maxQueue: 1, maxWaitMs: 1, serviceMs: () => 0.1 }).slotsNow()).toBe(3)
  })

  it("never runs a task whose caller has gone while it waited in a worker's own queue", async () => {
    const store = await makeStore(50)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 256, maxWaitMs: 5_000, testTasks: true })
    try {
      // Short tasks: the worker is then handed several ahead of the one it runs.
      for (let k = 0; k < 16; k++) await pool.run({ _tag: "Busy", ms: 1 })
      expect(pool.admission!.slotsNow()).toBeGreaterThan(2)
      const workersBefore = [...pool.threadIds]
      const busy = pool.run({ _tag: "Busy", ms: 300 })
      const gone = new AbortController()
      // Handed to the worker at once, behind the busy task: no longer in the admission queue.
      const crash = pool.run({ _tag: "Crash" }, { signal: gone.signal })
      expect([pool.admission!.size, pool.admission!.inFlight]).toEqual([0, 2])
      await new Promise((r) => setTimeout(r, 50))
      gone.abort()
      await expect(crash).rejects.toBeInstanceOf(Cancelled)
      await busy
      await new Promise((r) => setTimeout(r, 100))
      // The worker came to the crashing task after its caller had gone, and did not run it.
      expect(pool.threadIds).toEqual(workersBefore)
      expect(pool.refusals).toEqual({ queueTime: 0, queueCount: 0, clientGone: 1 })
      // Its flag is free again, and clear: the next task with a signal runs.
      expect(await pool.run({ _tag: "Busy", ms: 1 }, { signal: new AbortController().signal })).toMatchObject({ trips: expect.any(Number) })
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("never runs a task whose caller has gone while it waited", async () => {
    const store = await makeStore(50)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 256, maxWaitMs: 5_000, testTasks: true })
    try {
      const workersBefore = [...pool.threadIds]
      const completedBefore = pool.completed
      // Two busy tasks fill the slots (one running, one in piscina's short queue).
      const busy = [pool.run({ _tag: "Busy", ms: 300 }), pool.run({ _tag: "Busy", ms: 300 })]
      // Waiting behind them: a task that would crash its worker, and one whose client left before dispatch.
      const gone = new AbortController()
      const crash = pool.run({ _tag: "Crash" }, { signal: gone.signal })
      const quick = pool.run({ _tag: "Busy", ms: 1 }, { signal: gone.signal })
      expect(pool.admission!.size).toBe(2)
      await new Promise((r) => setTimeout(r, 50))
      gone.abort()
      await expect(crash).rejects.toBeInstanceOf(Cancelled)
      await expect(quick).rejects.toBeInstanceOf(Cancelled)
      // A signal already aborted is refused before it queues.
      await expect(pool.run({ _tag: "Crash" }, { signal: gone.signal })).rejects.toBeInstanceOf(Cancelled)
      await Promise.all(busy)
      await new Promise((r) => setTimeout(r, 100))
      // Only the two busy tasks ran: the worker never crashed, nothing else completed.
      expect(pool.completed - completedBefore).toBe(2)
      expect(pool.threadIds).toEqual(workersBefore)
      expect(pool.readyWorkers.size).toBe(1)
      expect(pool.admission!.refused.cancelled).toBe(3)
      expect(pool.refusals).toEqual({ queueTime: 0, queueCount: 0, clientGone: 3 })
    } finally {
      await pool.close()
      store.cleanup()
    }
  })
})
