/**
 * The captured output of a check, bounded: only the last `limitBytes` bytes are kept (the end of
 * a log is where a failure shows), with a note saying how much was dropped. docs/local-forge.md
 * "CI runner".
 */

/** Default bound: 1 MiB. */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** Keeps the last `limitBytes` bytes of a stream of chunks. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  /** @param limitBytes how many bytes to keep (at least 1) */
  constructor(private readonly limitBytes: number = DEFAULT_OUTPUT_LIMIT_BYTES) {
    if (!Number.isInteger(limitBytes) || limitBytes < 1)
      throw new RangeError(`output limit must be a positive whole number of bytes, got ${limitBytes}`);
  }

  /** Appends a chunk, dropping the oldest bytes beyond the limit. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.chunks.push(bytes);
    this.kept += bytes.length;
    while (this.kept > this.limitBytes) {
      const first = this.chunks[0]!;
      const excess = this.kept - this.limitBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.kept -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.kept -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Bytes dropped so far. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept bytes as UTF-8 text, without any note. */
  keptText(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }

  /** The kept output as UTF-8 text, preceded by a note when bytes were dropped. */
  text(): string {
    const body = this.keptText();
    return this.dropped === 0 ? body : `[yardmaster: ${this.dropped} earlier bytes of output dropped]\n${body}`;
  }
}
