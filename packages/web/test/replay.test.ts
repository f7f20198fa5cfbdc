import { describe, expect, it } from 'vitest';
import { amountText, formatMoney, parseMoney } from '../src/format';
import { seatSpots } from '../src/layout';
import { replayFrames } from '../src/replay';

describe('replayer frames from a PHH history', () => {
  const phh = [
    "variant = 'NT'",
    'antes = [0, 0]',
    'blinds_or_straddles = [1, 2]',
    'min_bet = 2',
    'starting_stacks = [100, 100]',
    "players = ['alice', 'bob']",
    "actions = ['d dh p1 AsKd', 'd dh p2 ????', 'p2 cbr 6', 'p1 cc', 'd db 2c7dJh', 'p1 cc', 'p2 cbr 10', 'p1 f']",
  ].join('\n');

  it('steps through every action with stacks, bets, board and pot', () => {
    const frames = replayFrames(phh);
    expect(frames).toHaveLength(10);
    // Heads-up PHH lists the small blind first while p1 posts the big one (the engine's reading).
    expect(frames[0]!.players.map((p) => p.bet)).toEqual([2, 1]);
    expect(frames[3]!.line).toBe('bob raises to 6');
    expect(frames[4]!.players.map((p) => p.stack)).toEqual([94, 94]);
    expect(frames[5]!.board).toEqual(['2c', '7d', 'Jh']);
    expect(frames[5]!.pot).toBe(12);
    expect(frames[1]!.players[0]!.cards).toEqual(['As', 'Kd']);
    expect(frames[2]!.players[1]!.cards).toEqual(['??', '??']);
    expect(frames[8]!.players[0]!.folded).toBe(true);
    expect(frames.at(-1)!.pot).toBe(12);
    expect(frames.at(-1)!.players.map((p) => p.stack)).toEqual([94, 94]);
  });

  it('a history the engine cannot read becomes one frame that says why', () => {
    const frames = replayFrames("variant = 'NT'\nactions = 'p1 f'");
    expect(frames).toHaveLength(1);
    expect(frames[0]!.line).toMatch(/^This history cannot be replayed: /);
  });
});

describe('money and layout', () => {
  it('amounts travel in hundredths: real money with a $, play money without', () => {
    expect(formatMoney(1234, 'real')).toBe('$12.34');
    expect(formatMoney(1200, 'real')).toBe('$12');
    expect(formatMoney(123_400, 'play')).toBe('1,234');
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney('1,234')).toBe(123_400);
    expect(parseMoney('1.555')).toBeNull();
    expect(amountText(1250)).toBe('12.50');
  });

  it('puts the viewer at the bottom centre and the others clockwise', () => {
    const spots = seatSpots(6, 3);
    expect(spots[3]).toMatchObject({ x: 50, y: 92 });
    expect(spots[4]!.x).toBeLessThan(50);
    expect(new Set(spots.map((spot) => `${spot.x},${spot.y}`)).size).toBe(6);
  });
});
