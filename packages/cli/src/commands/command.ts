export interface Command {
  /** Runs the command with the arguments after its name; resolves to the exit status. */
  run(args: readonly string[]): Promise<number>;
}

/** A command as the registry lists it: its one-line summary, and its module, loaded only when it runs. */
export interface CommandEntry {
  readonly summary: string;
  load(): Promise<Command>;
}
