import cliProgress from "cli-progress"

export interface Progress {
  readonly update: (done: number, errors: number) => void
  readonly stop: () => void
}

/**
 * Progress on stderr: a cli-progress bar on a TTY; otherwise a plain line every `everyMs`
 * (default 5 s) and at the end, so logs of CI or `nohup` runs stay readable.
 */
export const startProgress = (total: number, stream: NodeJS.WriteStream = process.stderr, everyMs = 5_000): Progress => {
  const started = Date.now()
  if (stream.isTTY === true) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: "replay [{bar}] {percentage}% | {value}/{total} queries | {rate} q/s | {errors} errors | ETA {eta_formatted}",
        hideCursor: true,
        etaBuffer: 200,
        fps: 10
      },
      cliProgress.Presets.shades_classic
    )
    bar.start(total, 0, { rate: "0.0", errors: 0 })
    return {
      update: (done, errors) => {
        const seconds = (Date.now() - started) / 1000
        bar.update(done, { rate: seconds > 0 ? (done / seconds).toFixed(1) : "0.0", errors })
      },
      stop: () => bar.stop()
    }
  }
  let last = { done: 0, errors: 0 }
  let printed = -1
  const print = () => {
    if (last.done === printed) return
    printed = last.done
    const seconds = (Date.now() - started) / 1000
    const percent = total > 0 ? Math.floor((last.done / total) * 100) : 100
    stream.write(
      `replay: ${last.done}/${total} queries (${percent}%), ${seconds > 0 ? (last.done / seconds).toFixed(1) : "0.0"} q/s, ${last.errors} errors\n`
    )
  }
  const timer = setInterval(print, everyMs)
  timer.unref()
  return {
    update: (done, errors) => {
      last = { done, errors }
    },
    stop: () => {
      clearInterval(timer)
      print()
    }
  }
}
