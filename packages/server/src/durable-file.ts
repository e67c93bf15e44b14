// Writes a file that must never be half there (master.key): a power cut leaves either no file or the whole text.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { basename, join } from 'node:path';

/** The file-system calls writeFileOnce makes; tests inject failing or recording ones. */
export type DurableFs = Pick<
  typeof fs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'linkSync' | 'unlinkSync'
>;

/**
 * Writes `text` to `file` (in `dir`) once, mode 0600: a temporary file in the same directory is written and fsynced,
 * linked into place (link, unlike rename, fails if the file exists: of two processes starting at once only one
 * wins, and an existing file is never overwritten) and the directory fsynced so the new name is on disk too.
 * False if `file` existed. A failure leaves no temporary file behind and `file` untouched.
 */
export function writeFileOnce(dir: string, file: string, text: string, io: DurableFs = fs): boolean {
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = io.openSync(tmp, 'wx', 0o600);
  let linked = true;
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      // writeSync may write less than asked (e.g. interrupted): loop until all of it is written.
      for (let off = 0; off < bytes.length; ) off += io.writeSync(fd, bytes, off, bytes.length - off);
      io.fsyncSync(fd);
    } finally {
      io.closeSync(fd);
    }
    try {
      io.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      linked = false;
    }
  } finally {
    io.unlinkSync(tmp);
  }
  const d = io.openSync(dir, 'r');
  try {
    io.fsyncSync(d);
  } finally {
    io.closeSync(d);
  }
  return linked;
}
