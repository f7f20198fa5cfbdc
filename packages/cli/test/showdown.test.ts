import { describe, expect, it } from 'vitest';
import { runFelt } from './run-felt.js';

describe('felt showdown (the command-line contract)', () => {
  it('answers every JSON line with one JSON line, in order', () => {
    const input = [
      '{"game": "omaha-hilo", "board": ["3c","4d","5h","Kc","Kd"], "players": [["Ah","2h","Kh","5c"], ["As","2s","9c","9d"]]}',
      '{"game": "holdem", "board": ["As","Ks","Qs","Js","2d"], "players": [["Ts","3c"], ["Ah","Ad"]]}',
    ].join('\n');
    const run = runFelt(['showdown'], `${input}\n`);
    expect(run.status).toBe(0);
    expect(run.json).toEqual([
      {
        winners: [0],
        lowWinners: [0, 1],
        hands: [
          {
            name: 'Full house, kings over fives',
            cards: ['Kh', 'Kd', 'Kc', '5h', '5c'],
            low: { name: '5-4-3-2-A low', cards: ['5h', '4d', '3c', '2h', 'Ah'] },
          },
          {
            name: 'Straight, five high',
            cards: ['As', '5h', '4d', '3c', '2s'],
            low: { name: '5-4-3-2-A low', cards: ['5h', '4d', '3c', '2s', 'As'] },
          },
        ],
      },
      {
        winners: [0],
        hands: [
          { name: 'Royal flush', cards: ['As', 'Ks', 'Qs', 'Js', 'Ts'] },
          { name: 'Three of a kind, aces', cards: ['As', 'Ah', 'Ad', 'Ks', 'Qs'] },
        ],
      },
    ]);
  });

  it('refuses a bad line with a typed error, goes on, and exits 1', () => {
    const lines = [
      '{"game": "holdem", "board": ["As","Ks","Qs","Js","2d"], "players": [["As","3c"], ["Ah","Ad"]]}',
      '{"game": "poker", "board": [], "players": [["As","3c"]]}',
      'not json',
      '{"game": "holdem", "board": ["As","Ks","Qs","Js","2d"], "players": [["Xs","3c"], ["Ah","Ad"]]}',
      '{"game": "holdem", "board": ["As","Ks","Qs","Js"], "players": [["2s","3c","4c"], ["Ah","Ad"]]}',
      '{"game": "draw32", "board": [], "players": [["2s","3c","4c","5c","6c"]]}',
      '{"game": "holdem", "board": ["As","Ks","Qs","Js","2d"], "players": [["Ts","3c"], ["Ah","Ad"]]}',
    ];
    const run = runFelt(['showdown'], lines.join('\n'));
    expect(run.status).toBe(1);
    const codes = run.json.map((line) => (line as { error?: { code: string } }).error?.code ?? 'ok');
    expect(codes).toEqual([
      'DUPLICATE_CARD',
      'UNKNOWN_GAME',
      'BAD_REQUEST',
      'BAD_CARD',
      'BAD_CARD_COUNT',
      'CARD_NOT_IN_DECK',
      'ok',
    ]);
    for (const line of run.json) {
      const error = (line as { error?: { message: unknown } }).error;
      if (error) expect(typeof error.message).toBe('string');
    }
  });
});
