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
    'seats = [4, 2]',
    'seat_count = 6',
    "actions = ['d dh p1 AsKd', 'd dh p2 ????', 'p2 cbr 6', 'p1 cc', 'd db 2c7dJh', 'p1 cc', 'p2 cbr 10', 'p1 f']",
    'finishing_stacks = [94, 106]',
  ].join('\n');

  it('steps through every action with stacks, bets, board and pot, in hundredths', () => {
    const { frames, seatCount } = replayFrames(phh, 'play');
    expect(frames).toHaveLength(10);
    expect(seatCount).toBe(6);
    expect(frames[0]!.players.map((p) => p.seat)).toEqual([3, 1]);
    // Heads-up PHH lists the small blind first while p1 posts the big one (the engine's reading).
    expect(frames[0]!.players.map((p) => p.bet)).toEqual([200, 100]);
    expect(frames[3]!.line).toBe('bob raises to 6');
    expect(frames[3]!.actor).toBe(1);
    expect(frames[4]!.players.map((p) => p.stack)).toEqual([9400, 9400]);
    expect(frames[5]!.board).toEqual(['2c', '7d', 'Jh']);
    expect(frames[5]!.pot).toBe(1200);
    expect(frames[1]!.players[0]!.cards).toEqual(['As', 'Kd']);
    expect(frames[2]!.players[1]!.cards).toEqual(['??', '??']);
    expect(frames[8]!.players[0]!.folded).toBe(true);
  });

  it('the last frame shows the pot paid: the finishing stacks, the winner and what he won', () => {
    const last = replayFrames(phh, 'real').frames.at(-1)!;
    expect(last.players.map((p) => p.stack)).toEqual([9400, 10_600]);
    expect(last.players.map((p) => p.won)).toEqual([0, 1200]);
    expect(last.pot).toBe(0);
    expect(last.line).toBe('bob wins $12');
    // Nobody showed: no hand is named and no card is highlighted.
    expect(last.players.every((p) => p.hand === null && p.best.length === 0)).toBe(true);
  });

  it('a shown winning hand is named by the engine and its five cards are the best ones', () => {
    const showdown = [
      "variant = 'NT'",
      'antes = [0, 0]',
      'blinds_or_straddles = [0.5, 1]',
      'min_bet = 1',
      'starting_stacks = [50, 50]',
      "players = ['alice', 'bob']",
      "actions = ['d dh p1 AsAh', 'd dh p2 KdQd', 'p2 cc', 'p1 cc', 'd db Ac7d2d', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm KdQd']",
      'finishing_stacks = [49, 51]',
    ].join('\n');
    const { frames } = replayFrames(showdown, 'play');
    const last = frames.at(-1)!;
    const bob = last.players[1]!;
    expect(bob.won).toBe(200);
    expect(bob.hand).toMatch(/flush/i);
    expect([...bob.best].sort()).toEqual(['2d', '3d', '7d', 'Kd', 'Qd'].sort());
    expect(last.players[0]!.best).toEqual([]);
    expect(last.players[0]!.hand).toMatch(/three/i);
    expect(last.line).toBe(`bob wins 2 with ${bob.hand!}`);
    // The name shows from the step he shows his cards on.
    const shows = frames.findIndex((frame) => frame.line.startsWith('bob shows'));
    expect(frames[shows]!.line).toBe(`bob shows Kd Qd (${bob.hand!})`);
    expect(frames[shows - 1]!.players[1]!.hand).toBeNull();
  });

  it('a history the engine cannot read becomes one frame that says why', () => {
    const { frames } = replayFrames("variant = 'NT'\nactions = 'p1 f'", 'play');
    expect(frames).toHaveLength(1);
    expect(frames[0]!.line).toMatch(/^This history cannot be replayed: /);
  });
});

describe('money and layout', () => {
  it('amounts travel in hundredths: real money with a $, play money without', () => {
    expect(formatMoney(1234, 'real')).toBe('$12.34');
    expect(formatMoney(1200, 'real')).toBe('$12');
    expect(formatMoney(123_400, 'play')).toBe('1,234');
    expect(parseMoney('12.5', 'play')).toBe(1250);
    expect(parseMoney('1,234', 'real')).toBe(123_400);
    expect(parseMoney('1.555', 'play')).toBeNull();
    expect(amountText(1250, 'real')).toBe('12.50');
  });

  it('puts the viewer at the bottom centre and the others clockwise', () => {
    const spots = seatSpots(6, 3);
    expect(spots[3]).toMatchObject({ x: 50, y: 92 });
    expect(spots[4]!.x).toBeLessThan(50);
    expect(new Set(spots.map((spot) => `${spot.x},${spot.y}`)).size).toBe(6);
  });
});
