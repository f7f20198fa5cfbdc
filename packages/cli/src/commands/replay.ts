import {
  formatScaled,
  parsePhhs,
  phhToText,
  replayPhh,
  resultDisagreement,
  type PhhHand,
  type ReplayError,
  type ResultDisagreement,
} from '@felt/engine';
import { eachFile } from '../inputs.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt replay [--rake house] [--text] FILE… (FILE - is standard input)\n' +
  "  one JSON line per hand: its finishing stacks, or the first action refused; a file's finishing_stacks\n" +
  '  or winnings that disagree with the replay are reported as an error beside the stacks replayed;\n' +
  '  --text: readable hand histories instead\n';

/**
 * One output line: the JSON object with `finishing_stacks` written as exact decimals of the game's
 * unit, and the file's answer that disagrees with them, if any, as its `error`.
 */
function resultLine(
  file: string,
  hand: number,
  stacks: readonly number[],
  scale: number,
  disagreement: ResultDisagreement | null,
): string {
  const head = JSON.stringify({ file, hand });
  const error = disagreement === null ? '' : `,"error":${JSON.stringify(disagreement)}`;
  return `${head.slice(0, -1)},"finishing_stacks":[${stacks.map((stack) => formatScaled(stack, scale)).join(',')}]${error}}`;
}

const errorLine = (
  file: string,
  hand: number | null,
  error: ReplayError | { code: string; message: string },
): string => JSON.stringify({ file, ...(hand === null ? {} : { hand }), error });

/** The output lines of one file's text (JSON lines, or text histories with `text`), and whether every hand replayed. */
export function replayText(
  file: string,
  text: string,
  options: { readonly houseRake: boolean; readonly text?: boolean },
): { lines: string[]; ok: boolean } {
  const parsed = parsePhhs(text);
  if (!parsed.ok) return { lines: [errorLine(file, null, parsed.error)], ok: false };
  if (parsed.value.length === 0) {
    return { lines: [errorLine(file, null, { code: 'BAD_PHH', message: 'no hand in the file' })], ok: false };
  }
  const lines: string[] = [];
  let allOk = true;
  parsed.value.forEach((hand, index) => {
    const number = index + 1;
    if (!hand.ok) {
      allOk = false;
      lines.push(errorLine(file, number, hand.error));
      return;
    }
    const phh: PhhHand = hand.value;
    const outcome = replayPhh(phh, { houseRake: options.houseRake });
    // The file's answers are checked, never followed: the game is played in the unit its own fields set.
    const disagreement = outcome.ok ? resultDisagreement(phh, outcome) : null;
    if (disagreement !== null) allOk = false;
    if (outcome.ok && options.text === true) {
      const history = phhToText({ ...phh, finishingStacks: outcome.finishingStacks }, number);
      lines.push(history.ok ? history.value : errorLine(file, number, history.error));
      if (disagreement !== null) lines.push(errorLine(file, number, disagreement));
    } else if (outcome.ok) {
      lines.push(resultLine(file, number, outcome.finishingStacks, phh.scale, disagreement));
    } else {
      allOk = false;
      lines.push(errorLine(file, number, outcome.error));
    }
  });
  return { lines, ok: allOk };
}

export const replay: Command = {
  async run(args) {
    let houseRake = false;
    let text = false;
    const files: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--rake' || arg.startsWith('--rake=')) {
        const value = arg === '--rake' ? args[++i] : arg.slice('--rake='.length);
        if (value !== 'house') {
          process.stderr.write(`felt replay: --rake takes "house"\n${USAGE}`);
          return 2;
        }
        houseRake = true;
      } else if (arg === '--text') {
        text = true;
      } else if (arg === '--help' || arg === '-h') {
        process.stdout.write(USAGE);
        return 0;
      } else if (arg.startsWith('--')) {
        process.stderr.write(`felt replay: unknown option ${arg}\n${USAGE}`);
        return 2;
      } else files.push(arg);
    }
    if (files.length === 0) {
      process.stderr.write(USAGE);
      return 2;
    }
    const ok = await eachFile(
      files,
      (file, input) => replayText(file, input, { houseRake, text }),
      (file, message) => errorLine(file, null, { code: 'READ_ERROR', message }),
    );
    return ok ? 0 : 1;
  },
};
