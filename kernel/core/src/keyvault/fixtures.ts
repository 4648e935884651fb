/** Test credentials (a made-up mnemonic of distinctive words, so a leak is easy to spot). */
export const MNEMONIC = [
  "zebra",
  "yellow",
  "walnut",
  "violin",
  "umbrella",
  "tornado",
  "sunflower",
  "rhythm",
  "quantum",
  "puzzle",
  "oyster",
  "nephew",
  "mango",
  "lizard",
  "kiwi",
  "jungle",
  "ivory",
  "hobby",
  "giraffe",
  "fossil",
  "elbow",
  "dolphin",
  "cactus",
  "bamboo",
]
export const PRIVATE_KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
export const ADDRESS = "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
