export declare function parseBenchArgs(
  argv: ReadonlyArray<string>,
  suiteFiles: ReadonlyArray<string>,
): { suites: Array<string>; flags: Array<string>; unknown: Array<string> }
