// A polling loop's sleep that wake() cuts short; a wake() made while the loop was busy is not lost.
export class WakeSignal {
  #wake: (() => void) | null = null;
  #woken = false;

  /** Ends the current sleep at once, or the next one if the loop is not sleeping now. */
  wake(): void {
    this.#woken = true;
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  /** Resolves after `ms`; at once when woken since the last sleep, or when the loop is `stopped`. */
  sleep(ms: number, stopped = false): Promise<void> {
    if (this.#woken || stopped) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#woken = false;
        resolve();
      };
    });
  }
}
