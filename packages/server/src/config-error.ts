// The one error a bad configuration value raises, server or command line: a one-line message naming the key.

/** A configuration value that cannot be used; the message is one line naming the key. */
export class ConfigError extends Error {
  readonly key: string;
  constructor(key: string, problem: string) {
    super(`config ${key}: ${problem}`);
    this.name = 'ConfigError';
    this.key = key;
  }
}
