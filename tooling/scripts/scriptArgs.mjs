// The command line of the repository's own scripts that take no arguments or a few flags:
// `--help` prints the usage and does nothing else (exit 0); an unknown flag or argument is a
// usage error (exit 2), so that a flag meant for another command never runs this one's work.
import { parseArgs } from "node:util"

/** The parsed `options` of `parseArgs`, or the usage printed and the process ended. */
export const scriptArgs = (name, usage, options = {}) => {
  let parsed
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean" } }, strict: true, allowPositionals: false })
  } catch (error) {
    process.stderr.write(`${name}: ${error.message}\n${usage}\n`)
    process.exit(2)
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`)
    process.exit(0)
  }
  return parsed.values
}
