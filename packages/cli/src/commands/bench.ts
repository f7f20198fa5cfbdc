import { parseArgs } from 'node:util';
import type { Command } from './command.js';

export const bench: Command = {
  async run(args) {
    let options: { json: boolean; only: string | undefined };
    try {
      const { values } = parseArgs({
        args: [...args],
        options: { json: { type: 'boolean', default: false }, only: { type: 'string' } },
      });
      options = { json: values.json, only: values.only };
    } catch (error) {
      process.stderr.write(
        `felt bench: ${(error as Error).message}\nusage: felt bench [--json] [--only GROUP]\n`,
      );
      return 2;
    }
    // Loaded only here: the peers it measures are development dependencies.
    const { runBench } = await import('@felt/bench');
    try {
      await runBench({ ...options, out: (line) => process.stdout.write(`${line}\n`) });
    } catch (error) {
      process.stderr.write(`felt bench: ${(error as Error).message}\n`);
      return 2;
    }
    return 0;
  },
};
