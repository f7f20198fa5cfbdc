import { COMMANDS } from './commands/index.js';

/** `felt COMMAND …`: each command takes its own arguments and returns the process's exit status. */
async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    const list = Object.entries(COMMANDS)
      .map(([commandName, { summary }]) => `  ${commandName.padEnd(10)} ${summary}`)
      .join('\n');
    process.stderr.write(`usage: felt COMMAND [ARGS]\n\ncommands:\n${list}\n`);
    return name === undefined || name === '--help' || name === 'help' ? 0 : 2;
  }
  return (await command.load()).run(args);
}

process.exitCode = await main(process.argv.slice(2));
