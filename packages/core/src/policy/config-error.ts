// The error for a policy or money-rule definition in config that cannot be used; its message names the path.

export class PolicyConfigError extends Error {
  /** Where in the config the problem is, e.g. `policies[0].fast.delays[1]`. */
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'PolicyConfigError';
    this.path = path;
  }
}
