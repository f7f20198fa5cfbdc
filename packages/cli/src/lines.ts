import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Lines of a stream, without their line ends; a trailing empty line is not yielded. */
export async function* readLines(input: Readable): AsyncGenerator<string> {
  for await (const line of createInterface({ input, crlfDelay: Infinity })) yield line;
}

/** Writes one line to standard output, waiting when the pipe is full so large outputs keep their order and memory bound. */
export async function writeLine(text: string): Promise<void> {
  if (!process.stdout.write(`${text}\n`)) {
    await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
  }
}
