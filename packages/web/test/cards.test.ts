import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cardCode, cardName, parseCardCode, suitColour } from '../src/cards';
import { Card, CardRow } from '../src/components/Card';

describe('cards', () => {
  it('names every card of the 52 once, from the engine numbering (rank * 4 + suit)', () => {
    const codes = new Set<string>();
    for (let card = 0; card < 52; card++) {
      const code = cardCode(card);
      expect(parseCardCode(code)).toBe(card);
      codes.add(code);
    }
    expect(codes.size).toBe(52);
    expect(cardCode(51)).toBe('As');
    expect(cardCode(0)).toBe('2c');
    expect(cardName(parseCardCode('Td'))).toBe('Ten of diamonds');
    expect(cardCode(null)).toBe('??');
    expect(cardName(null)).toBe('face-down card');
  });

  it('draws all 52 faces and the back as SVG with an accessible name', () => {
    for (let card = 0; card < 52; card++) {
      const html = renderToStaticMarkup(createElement(Card, { card }));
      expect(html).toMatch(/^<svg/);
      expect(html).toContain(`aria-label="${cardName(card)}"`);
      expect(html).toContain(`data-card="${cardCode(card)}"`);
    }
    const back = renderToStaticMarkup(createElement(Card, { card: null }));
    expect(back).toContain('aria-label="face-down card"');
    expect(back).toContain('data-card="??"');
  });

  it('four-colour deck: four suits, four colours; two-colour: red and black', () => {
    const four = new Set([0, 1, 2, 3].map((suit) => suitColour(suit, true)));
    const two = new Set([0, 1, 2, 3].map((suit) => suitColour(suit, false)));
    expect(four.size).toBe(4);
    expect(two.size).toBe(2);
    const html = renderToStaticMarkup(createElement(Card, { card: parseCardCode('Qd'), fourColour: true }));
    expect(html).toContain(suitColour(1, true));
  });

  it('a stud down card seen by its owner is face up and marked "face down"', () => {
    const html = renderToStaticMarkup(
      createElement(CardRow, {
        cards: [parseCardCode('7h'), null, parseCardCode('Kc')],
        up: [false, false, true],
        label: 'cards',
      }),
    );
    expect(html).toContain('Seven of hearts (face down)');
    expect(html).toContain('face-down card');
    expect(html).toContain('aria-label="King of clubs"');
  });
});
