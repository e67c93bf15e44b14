// A one-line progress bar redrawn in place on a terminal's stderr; plain lines when stderr is not a terminal.
import type { OutputStream } from './cli-context.ts';

export interface ProgressBar {
  update(done: number, total: number, detail?: string): void;
  /** Ends the bar's line so later output starts on a fresh one. */
  finish(): void;
}

export function createProgressBar(stream: OutputStream, label: string, width = 30): ProgressBar {
  const tty = stream.isTTY === true;
  let last = '';
  let drawn = false;
  return {
    update(done, total, detail = '') {
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(ratio * width);
      const text = tty
        ? `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${detail ? ` ${detail}` : ''}`
        : `${label} ${done}/${total}${detail ? ` ${detail}` : ''}`;
      if (text === last) return; // plain output gets one line per change, not one per poll
      last = text;
      if (tty) {
        stream.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else stream.write(`${text}\n`);
    },
    finish() {
      if (tty && drawn) stream.write('\n');
      drawn = false;
    },
  };
}
