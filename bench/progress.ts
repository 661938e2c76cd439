// Progress of a bench phase: a self-rewriting line on a TTY, a line every few seconds otherwise (CI logs).

export interface Progress {
  /** Sets how many of `total` are done. */
  update(done: number): void;
  /** Ends the line with a final count. */
  done(note?: string): void;
}

export interface ProgressOptions {
  /** Where to write (stderr by default, so the table on stdout stays clean). */
  stream?: NodeJS.WriteStream;
  /** Suppress all output (the CI smoke test). */
  quiet?: boolean;
}

export function progress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const started = performance.now();
  let last = 0;
  let current = 0;
  const tty = Boolean(stream.isTTY);
  const line = () => {
    const secs = (performance.now() - started) / 1000;
    const rate = secs > 0 ? current / secs : 0;
    return `${label}: ${current}/${total} (${Math.round((100 * current) / Math.max(1, total))}%, ${rate.toFixed(0)}/s, ${secs.toFixed(1)} s)`;
  };
  return {
    update(done) {
      current = done;
      if (options.quiet) return;
      const now = performance.now();
      if (tty && now - last > 100) {
        last = now;
        stream.write(`\r\x1b[2K${line()}`);
      } else if (!tty && now - last > 5_000) {
        last = now;
        stream.write(`${line()}\n`);
      }
    },
    done(note) {
      if (options.quiet) return;
      stream.write(`${tty ? '\r\x1b[2K' : ''}${line()}${note ? ` ${note}` : ''}\n`);
    },
  };
}
