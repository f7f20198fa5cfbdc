import { GROUPS } from './groups.js';
import { jsonLine, textLines } from './report.js';
import type { BenchSettings } from './registry.js';

export interface BenchOptions {
  /** One JSON object a line instead of text. */
  readonly json: boolean;
  /** Runs only the group of this name (`eval`, `startup`). */
  readonly only?: string | undefined;
  /** Receives each output line, without its newline. */
  readonly out: (line: string) => void;
  /** Random deals the rows share (default 10,000); the tests pass a few. */
  readonly samples?: number | undefined;
  /** Length of one timed batch in milliseconds (default 200). */
  readonly batchMs?: number | undefined;
}

/** `felt bench`: measures Felt against its npm peers, group by group, and prints each row as it is known. */
export async function runBench(options: BenchOptions): Promise<void> {
  const { json, only, out } = options;
  const groups = only === undefined ? GROUPS : GROUPS.filter((group) => group.name === only);
  if (groups.length === 0) {
    throw new Error(
      `unknown bench group ${JSON.stringify(only)}; the groups are ${GROUPS.map((group) => group.name).join(', ')}`,
    );
  }
  const settings: BenchSettings = { samples: options.samples ?? 10_000, batchMs: options.batchMs ?? 200 };
  if (!json)
    out(`Felt bench: ${settings.samples} random deals, median of timed ${settings.batchMs} ms batches`);
  for (const group of groups) {
    for await (const row of group.rows(settings)) {
      if (json) out(jsonLine(row));
      else for (const line of textLines(row)) out(line);
    }
  }
}
