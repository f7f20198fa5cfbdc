import { describe, expect, it } from 'vitest';
import { betSizeLabel, betSizeTo, DEFAULT_BET_SIZES, parseBetSizes } from '../src/bet-sizes';

describe('bet-size buttons', () => {
  it('the default list reads as ⅓, ½, ¾ pot, pot, 2.5× and 3×', () => {
    expect(parseBetSizes(DEFAULT_BET_SIZES)?.map(betSizeLabel)).toEqual([
      '⅓ Pot',
      '½ Pot',
      '¾ Pot',
      'Pot',
      '2.5×',
      '3×',
    ]);
  });

  it('a player writes fractions, percentages, decimals and multiples; anything else keeps nothing', () => {
    expect(parseBetSizes('2/3, 60%, 0.25, POT, 4X')?.map(betSizeLabel)).toEqual([
      '⅔ Pot',
      '60% Pot',
      '¼ Pot',
      'Pot',
      '4×',
    ]);
    for (const bad of ['', ' , ', 'half', '1/0', '0', '-1/2', '1x', '0.5x', '1/3,,big', '1,2,3,4,5,6,7,8,9'])
      expect(parseBetSizes(bad)).toBeNull();
  });

  it('a fraction is of the pot after the call; a multiple is of the bet faced, and none when there is no bet', () => {
    const [third, , , pot, twoHalf] = parseBetSizes(DEFAULT_BET_SIZES)!;
    // Preflop at 1/2 (cents 100/200), first to act: 300 in, a call of 200: pot is raise to 700.
    const preflop = { pot: 300, currentBet: 200, call: 200 };
    expect(betSizeTo(pot!, preflop)).toBe(700);
    expect(betSizeTo(twoHalf!, preflop)).toBe(500);
    expect(betSizeTo(third!, preflop)).toBe(366);
    // On the flop with nothing bet: a third of a 1,200 pot, and no multiple to offer.
    const flop = { pot: 1200, currentBet: 0, call: 0 };
    expect(betSizeTo(third!, flop)).toBe(400);
    expect(betSizeTo(twoHalf!, flop)).toBeNull();
  });
});
