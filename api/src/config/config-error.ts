/** A variable of the environment the API cannot run with; the message names it first. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}
