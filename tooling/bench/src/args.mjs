// The command line of `npm run bench`: suite names first, then flags for the suites.
//   npm run bench                                  every suite
//   npm run bench -- app-size                      suites whose file name starts with "app-size"
//   npm run bench -- first-load --runs 3 --json    "--runs 3 --json" goes to first-load

/**
 * Splits `argv` (after the script) at the first argument starting with "-": the words before it
 * name suites (a prefix of the file name), the rest are passed to each chosen suite unchanged.
 * An unknown name is reported in `unknown` (the runner refuses to run nothing).
 *
 * @param {ReadonlyArray<string>} argv
 * @param {ReadonlyArray<string>} suiteFiles the `*.ts` files under tooling/bench/suites
 * @returns {{ suites: Array<string>, flags: Array<string>, unknown: Array<string> }}
 */
export function parseBenchArgs(argv, suiteFiles) {
  const firstFlag = argv.findIndex((a) => a.startsWith("-"))
  const names = firstFlag === -1 ? [...argv] : argv.slice(0, firstFlag)
  const flags = firstFlag === -1 ? [] : argv.slice(firstFlag)
  const unknown = names.filter((n) => !suiteFiles.some((f) => f.startsWith(n)))
  const suites = suiteFiles.filter((f) => names.length === 0 || names.some((n) => f.startsWith(n)))
  return { suites, flags, unknown }
}
