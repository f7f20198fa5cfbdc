/**
 * A PHH file's answer fields (finishing_stacks, winnings) never set the unit its game is played in;
 * where they disagree with that unit or with the replay, the disagreement is named.
 */
import { describe, expect, it } from 'vitest';
import { parsePhh, replayPhh, resultDisagreement, writePhh, type PhhHand } from '../src/phh/index.js';

/** Three-handed hold'em in whole chips: p1 folds, p2 and p3 split a pot of 5 with the board's royal flush. */
const SPLIT = `variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 7h8h", "d dh p2 2c3d", "d dh p3 2d3c", "p3 cc", "p1 f", "p2 cc", "d db AsKsQs", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc", "d db Ts", "p2 cc", "p3 cc", "p2 sm 2c3d", "p3 sm 2d3c"]
`;

const mustParse = (text: string): PhhHand => {
  const parsed = parsePhh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

/** The hand replayed and its answers checked: the replayed stacks and the disagreement, if any. */
function check(text: string) {
  const hand = mustParse(text);
  const outcome = replayPhh(hand, {});
  if (!outcome.ok) throw new Error(outcome.error.message);
  return { hand, stacks: outcome.finishingStacks, disagreement: resultDisagreement(hand, outcome) };
}

describe("the game's unit comes from the fields that describe the game", () => {
  it('a finishing_stacks finer than every other amount leaves the unit whole chips, and is kept as written', () => {
    const hand = mustParse(`${SPLIT}finishing_stacks = [99, 100.5, 100.5]\n`);
    expect(hand.scale).toBe(0);
    expect(hand.startingStacks).toEqual([100, 100, 100]);
    expect(hand.finishingStacks).toBeUndefined();
    expect(hand.resultsOffUnit).toEqual({ finishing_stacks: [99, 100.5, 100.5] });
    // Written back as the file wrote it.
    expect(writePhh(hand)).toContain('finishing_stacks = [ 99, 100.5, 100.5 ]');
    expect(mustParse(writePhh(hand))).toEqual(hand);
  });

  it('winnings finer than every other amount leave the unit whole chips', () => {
    const hand = mustParse(`${SPLIT}winnings = [0, 2.5, 2.5]\n`);
    expect(hand.scale).toBe(0);
    expect(hand.resultsOffUnit).toEqual({ winnings: [0, 2.5, 2.5] });
  });
});

describe("a file's answers are checked against the replay, never followed", () => {
  it("the hand is played in the game's unit (the odd chip whole) and a half-chip finishing_stacks is a disagreement", () => {
    const { stacks, disagreement } = check(`${SPLIT}finishing_stacks = [99, 100.5, 100.5]\n`);
    expect(stacks).toEqual([99, 101, 100]);
    expect(disagreement).toMatchObject({ code: 'RESULT_DISAGREES', field: 'finishing_stacks' });
    expect(disagreement?.message).toMatch(
      /^finishing_stacks: the file says \[99, 100\.5, 100\.5\], finer than/,
    );
  });

  it('finishing_stacks in the unit but other than the replay are a disagreement', () => {
    const { disagreement } = check(`${SPLIT}finishing_stacks = [99, 100, 101]\n`);
    expect(disagreement).toEqual({
      code: 'RESULT_DISAGREES',
      field: 'finishing_stacks',
      message: 'finishing_stacks: the file says [99, 100, 101], the replay [99, 101, 100]',
    });
  });

  it('winnings are the pots each player collected, and other winnings are a disagreement', () => {
    expect(
      check(`${SPLIT}finishing_stacks = [99, 101, 100]\nwinnings = [0, 3, 2]\n`).disagreement,
    ).toBeNull();
    expect(check(`${SPLIT}winnings = [0, 5, 0]\n`).disagreement).toEqual({
      code: 'RESULT_DISAGREES',
      field: 'winnings',
      message: 'winnings: the file says [0, 5, 0], the replay [0, 3, 2]',
    });
  });
});
