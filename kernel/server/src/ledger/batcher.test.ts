import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { makeBatcher } from "./batcher.ts"

const withBatcher = async <A>(
  execute: (items: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Exit.Exit<string, string>>, unknown>,
  use: (run: (item: number) => Promise<Exit.Exit<string, string>>, batches: Array<ReadonlyArray<number>>) => Promise<A>,
  workers = 1,
) => {
  const batches: Array<ReadonlyArray<number>> = []
  const scope = Effect.runSync(Scope.make())
  const batcher = await Effect.runPromise(
    makeBatcher({
      workers,
      execute: (items: ReadonlyArray<number>) =>
        Effect.andThen(
          Effect.sync(() => batches.push(items)),
          execute(items),
        ),
    }).pipe(Scope.provide(scope)),
  )
  try {
    return await use((item) => Effect.runPromise(Effect.exit(batcher.run(item))), batches)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

describe("makeBatcher", () => {
  it("answers concurrent items from shared batches, each with its own result or failure", async () => {
    const exits = await withBatcher(
      (items) => Effect.succeed(items.map((n) => (n % 5 === 0 ? Exit.fail(`bad ${n}`) : Exit.succeed(`ok ${n}`)))),
      async (run, batches) => {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => run(n + 1)))
        expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1))
        expect(batches.length).toBeLessThan(20)
        return answers
      },
    )
    exits.forEach((exit, index) => {
      const n = index + 1
      expect(exit).toEqual(n % 5 === 0 ? Exit.fail(`bad ${n}`) : Exit.succeed(`ok ${n}`))
    })
  })

  it("runs a lone item at once and gathers what arrives meanwhile into the next batch", async () => {
    let started!: () => void
    const firstStarted = new Promise<void>((resolve) => (started = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    await withBatcher(
      (items) =>
        Effect.as(
          items.includes(1)
            ? Effect.andThen(
                Effect.sync(started),
                Effect.promise(() => gate),
              )
            : Effect.void,
          items.map((n) => Exit.succeed(String(n))),
        ),
      async (run, batches) => {
        const first = run(1)
        await firstStarted
        const rest = [2, 3, 4].map(run)
        await new Promise((resolve) => setImmediate(resolve))
        release()
        await Promise.all([first, ...rest])
        expect(batches).toEqual([[1], [2, 3, 4]])
      },
    )
  })

  it("answers every item of a batch whose execution breaks with a defect, and keeps serving", async () => {
    await withBatcher(
      (items) => (items.includes(13) ? Effect.die(new Error("boom")) : Effect.succeed(items.map((n) => Exit.succeed(String(n))))),
      async (run) => {
        const broken = await run(13)
        expect(Exit.isFailure(broken) && broken.cause.reasons[0]?._tag === "Die").toBe(true)
        expect(await run(14)).toEqual(Exit.succeed("14"))
      },
    )
  })
})
