import { readFile } from 'node:fs/promises';
import { writeLine } from './lines.js';

/** The text of `file`, or of standard input for `-`. */
export async function readInput(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** What a file command makes of one file's text: its output lines, and whether all of it was good. */
export interface FileResult {
  readonly lines: readonly string[];
  readonly ok: boolean;
}

/**
 * Reads each file in turn and writes the lines `handle` makes of it, in file order; a file that cannot
 * be read writes the line `unreadable` makes of the error. True when every file was read and good.
 */
export async function eachFile(
  files: readonly string[],
  handle: (file: string, text: string) => FileResult,
  unreadable: (file: string, message: string) => string,
): Promise<boolean> {
  let allGood = true;
  for (const file of files) {
    let text: string;
    try {
      text = await readInput(file);
    } catch (error) {
      allGood = false;
      await writeLine(unreadable(file, error instanceof Error ? error.message : String(error)));
      continue;
    }
    const result = handle(file, text);
    if (!result.ok) allGood = false;
    for (const line of result.lines) await writeLine(line);
  }
  return allGood;
}
