/**
 * A live progress line on stderr: only on a terminal, never in CI or with --quiet.
 * It rewrites one line in place and clears it when done.
 */
export class Progress {
  private readonly started = performance.now();
  private last = 0;
  private shown = false;

  constructor(private readonly enabled: boolean) {}

  static forTerminal(quiet: boolean | undefined): Progress {
    return new Progress(quiet !== true && process.stderr.isTTY === true && process.env.CI === undefined);
  }

  update(text: string): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < 100) return;
    this.last = now;
    const elapsed = ((now - this.started) / 1000).toFixed(1);
    const line = `awp-conformance: ${text} · ${elapsed} s`;
    const width = process.stderr.columns ?? 100;
    process.stderr.write(`\r\u001b[2K${line.slice(0, Math.max(10, width - 1))}`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) process.stderr.write("\r\u001b[2K");
    this.shown = false;
  }
}
