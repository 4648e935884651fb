/**
 * `makeBatcher`: the Ledger's group-commit queue, generalised (docs/decisions/0403). Callers submit
 * one item each and wait for its own answer; `workers` fibers each take everything waiting (up to
 * `maxBatch`) and answer it with one `execute` call, so N concurrent requests cost one database
 * round trip instead of N. An idle batcher adds no delay: a lone item runs at once.
 *
 * `execute` answers every item with an `Exit` (one per item, same order): an item's failure is its
 * own, the others still succeed. If `execute` itself fails or dies, every item of that batch gets
 * the defect (a bug, not a business outcome).
 */
import { Deferred, Effect, Exit, Queue, type Scope } from "effect"

export interface Batcher<I, A, E> {
  /** Queues `item` and waits for its answer. */
  readonly run: (item: I) => Effect.Effect<A, E>
}

export interface BatcherOptions<I, A, E, R> {
  readonly execute: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<Exit.Exit<A, E>>, unknown, R>
  /** Batches in flight at once (default 2: one runs while the next gathers). */
  readonly workers?: number
  /** Most items per `execute` call (default 256). */
  readonly maxBatch?: number
  /** Observes every batch size (benchmarks, tests). */
  readonly onBatch?: (size: number) => void
}

interface Job<I, A, E> {
  readonly item: I
  readonly deferred: Deferred.Deferred<A, E>
}

export const makeBatcher = <I, A, E, R>(options: BatcherOptions<I, A, E, R>): Effect.Effect<Batcher<I, A, E>, never, Scope.Scope | R> =>
  Effect.gen(function* () {
    const context = yield* Effect.context<R>()
    const maxBatch = Math.max(1, options.maxBatch ?? 256)
    const workers = Math.max(1, options.workers ?? 2)
    const queue = yield* Queue.unbounded<Job<I, A, E>>()
    const unanswered = new Set<Job<I, A, E>>()
    const answer = (job: Job<I, A, E>, exit: Exit.Exit<A, E>) => {
      unanswered.delete(job)
      Deferred.doneUnsafe(job.deferred, exit)
    }
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        const stopped = Exit.die(new Error("batcher: stopped before the item was answered"))
        for (const job of unanswered) Deferred.doneUnsafe(job.deferred, stopped)
        unanswered.clear()
      }),
    )

    const worker = Effect.gen(function* () {
      const jobs = yield* Queue.takeBetween(queue, 1, maxBatch)
      options.onBatch?.(jobs.length)
      const exit = yield* Effect.exit(options.execute(jobs.map((job) => job.item)))
      if (Exit.isSuccess(exit) && exit.value.length === jobs.length) {
        jobs.forEach((job, index) => answer(job, exit.value[index]!))
      } else {
        const defect = Exit.isSuccess(exit)
          ? new Error(`batcher: ${exit.value.length} answers for ${jobs.length} items`)
          : new Error(`batcher: ${String(exit.cause)}`)
        jobs.forEach((job) => answer(job, Exit.die(defect)))
      }
    }).pipe(Effect.provideContext(context), Effect.forever)
    for (let i = 0; i < workers; i++) yield* Effect.forkScoped(worker)

    return {
      run: (item) =>
        Effect.suspend(() => {
          const job: Job<I, A, E> = { item, deferred: Deferred.makeUnsafe<A, E>() }
          unanswered.add(job)
          Queue.offerUnsafe(queue, job)
          return Deferred.await(job.deferred)
        }),
    }
  })
