// Node 20 lacks Map.groupBy (Node 21+), which Vitest 5's reporter calls when it prints a failure.
if (typeof Map.groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", {
    value(items, key) {
      const map = new Map()
      let index = 0
      for (const item of items) {
        const k = key(item, index++)
        const list = map.get(k)
        if (list) list.push(item)
        else map.set(k, [item])
      }
      return map
    },
  })
}
