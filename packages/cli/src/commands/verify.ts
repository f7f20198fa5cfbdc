import { FAIR_FIELDS, parsePhhs, verifyFairHands, type PhhHand } from '@felt/engine';
import { eachFile } from '../inputs.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt verify FILE.phh|FILE.phhs… (FILE - is standard input)\n' +
  '  checks each hand dealt by the fair-dealing scheme (docs/fairness.md): the commitment, the chain,\n' +
  '  the contributions and every card dealt; one JSON line per hand, exit 0 only when every hand is ok;\n' +
  '  "hand" is the hand\'s place in the file (from 1), "fairHand" its _fair_hand number (null without one)\n';

/** The hand's number in its table's chain (`_fair_hand`), or null when it has none that is one. */
function fairHandOf(hand: PhhHand | null): number | null {
  const number = hand?.extra[FAIR_FIELDS.hand];
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 1 ? number : null;
}

/** The output lines of one file's text, and whether every hand verified. */
export function verifyText(file: string, text: string): { lines: string[]; ok: boolean } {
  const parsed = parsePhhs(text);
  if (!parsed.ok)
    return {
      lines: [JSON.stringify({ file, ok: false, reason: `phh: ${parsed.error.message}` })],
      ok: false,
    };
  if (parsed.value.length === 0)
    return { lines: [JSON.stringify({ file, ok: false, reason: 'phh: no hand in the file' })], ok: false };
  const verdicts = verifyFairHands(parsed.value.map((hand) => (hand.ok ? hand.value : hand.error.message)));
  // `hand` stays the place in the file, as it always was; the chain's number is its own field.
  const lines = verdicts.map((verdict, index) => {
    const read = parsed.value[index];
    const fairHand = fairHandOf(read?.ok === true ? read.value : null);
    return JSON.stringify({ file, hand: index + 1, ...verdict, fairHand });
  });
  return { lines, ok: verdicts.every((verdict) => verdict.ok) };
}

export const verify: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    const unknown = args.find((arg) => arg.startsWith('--'));
    if (unknown !== undefined || args.length === 0) {
      process.stderr.write(
        `${unknown === undefined ? '' : `felt verify: unknown option ${unknown}\n`}${USAGE}`,
      );
      return 2;
    }
    const ok = await eachFile(args, verifyText, (file, message) =>
      JSON.stringify({ file, ok: false, reason: `read: ${message}` }),
    );
    return ok ? 0 : 1;
  },
};
