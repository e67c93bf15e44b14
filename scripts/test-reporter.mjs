// The suite's reporter: node's spec reporter, plus the names of the tests still running when a file is cut off.
// On Node 20, --test-timeout bounds each test file as a whole (the runner ends the file's process); the failure it
// reports carries only the file's path. This reporter follows which tests of each file have started and not
// finished, and writes them into that failure, so a stuck test fails with its name.
// Plain JavaScript: the runner loads reporters before tsx's hooks apply.
import { Transform } from 'node:stream';
import { spec } from 'node:test/reporters';

/** @type {Map<string, Array<{ name: string, nesting: number }>>} file → tests started and not finished, outermost first */
const running = new Map();

function track({ type, data }) {
  const { name, file, nesting = 0 } = data;
  if (file === undefined || name === undefined || name === file) return;
  if (type === 'test:dequeue') {
    const list = running.get(file) ?? [];
    list.push({ name, nesting });
    running.set(file, list);
  } else if (type === 'test:complete') {
    const list = running.get(file) ?? [];
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].name === name && list[i].nesting === nesting) {
        list.splice(i, 1);
        break;
      }
    }
  }
}

/** A file that ran past the timeout: name what was running in it, in the message the spec reporter prints. */
function nameStuckTests({ type, data }) {
  const { name, file } = data;
  const error = data.details?.error;
  if (type !== 'test:fail' || file === undefined || name !== file || error?.failureType !== 'testTimeoutFailure')
    return;
  const stuck = (running.get(file) ?? []).map((t) => JSON.stringify(t.name));
  running.delete(file);
  if (stuck.length === 0) return;
  const text = `${String(error.cause ?? error.message)}; still running: ${stuck.join(' > ')}`;
  error.cause = text;
  error.message = text;
}

/**
 * A synchronous pass-through around the spec reporter (a generator's extra turns would lose the summary when the
 * runner force-exits).
 */
export default class Reporter extends Transform {
  #spec = new spec();
  constructor() {
    super({ writableObjectMode: true });
  }
  #drain() {
    let out = '';
    for (let chunk = this.#spec.read(); chunk !== null; chunk = this.#spec.read()) out += String(chunk);
    return out;
  }
  _transform(event, _encoding, callback) {
    track(event);
    nameStuckTests(event);
    this.#spec.write(event);
    callback(null, this.#drain());
  }
  _flush(callback) {
    this.#spec.end();
    callback(null, this.#drain());
  }
}
