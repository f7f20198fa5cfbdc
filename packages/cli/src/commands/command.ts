export interface Command {
  readonly summary: string;
  /** Runs the command with the arguments after its name; resolves to the exit status. */
  run(args: readonly string[]): Promise<number>;
}
